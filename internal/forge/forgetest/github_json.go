package forgetest

import (
	"fmt"
	"strings"
	"time"
)

// Builders of the JSON objects the fake GitHub answers with. Each carries
// every property the official schema requires; the spec check on every
// answer is what keeps them honest.

type obj = map[string]any

const (
	ghAPI = "https://api.github.com"
	ghWeb = "https://github.com"
)

func ghTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func ghUserJSON(login string, id int64) obj {
	u := ghAPI + "/users/" + login
	return obj{
		"login": login, "id": id, "node_id": fmt.Sprintf("U_%d", id), "type": "User", "site_admin": false,
		"avatar_url": "https://avatars.githubusercontent.com/u/" + fmt.Sprint(id), "gravatar_id": "",
		"url": u, "html_url": ghWeb + "/" + login, "followers_url": u + "/followers",
		"following_url": u + "/following{/other_user}", "gists_url": u + "/gists{/gist_id}",
		"starred_url": u + "/starred{/owner}{/repo}", "subscriptions_url": u + "/subscriptions",
		"organizations_url": u + "/orgs", "repos_url": u + "/repos", "events_url": u + "/events{/privacy}",
		"received_events_url": u + "/received_events",
	}
}

// ghPrivateUserJSON is GET /user's answer for the token's owner.
func ghPrivateUserJSON(login string, id int64, created time.Time) obj {
	u := ghUserJSON(login, id)
	extra := obj{
		"user_view_type": "private", "name": login, "company": nil, "blog": "", "location": nil, "email": nil,
		"hireable": nil, "bio": nil, "public_repos": 1, "public_gists": 0, "followers": 0, "following": 0,
		"created_at": ghTime(created), "updated_at": ghTime(created), "private_gists": 0, "total_private_repos": 0,
		"owned_private_repos": 0, "disk_usage": 0, "collaborators": 0, "two_factor_authentication": true,
	}
	for k, v := range extra {
		u[k] = v
	}
	return u
}

func ghRepoJSON(full string, id int64, owner obj, created time.Time) obj {
	u := ghAPI + "/repos/" + full
	_, name, _ := strings.Cut(full, "/")
	r := obj{
		"id": id, "node_id": fmt.Sprintf("R_%d", id), "name": name, "full_name": full, "owner": owner,
		"private": false, "fork": false, "description": nil, "homepage": nil, "language": "Go", "license": nil,
		"mirror_url": nil, "archived": false, "disabled": false, "default_branch": "main",
		"html_url": ghWeb + "/" + full, "url": u, "clone_url": ghWeb + "/" + full + ".git",
		"git_url": "git://github.com/" + full + ".git", "ssh_url": "git@github.com:" + full + ".git",
		"svn_url": ghWeb + "/" + full, "forks": 0, "forks_count": 0, "open_issues": 1, "open_issues_count": 1,
		"stargazers_count": 0, "watchers": 0, "watchers_count": 0, "size": 1,
		"has_downloads": true, "has_issues": true, "has_projects": true, "has_wiki": true, "has_pages": false,
		"pushed_at": ghTime(created), "created_at": ghTime(created), "updated_at": ghTime(created),
	}
	for _, k := range []string{"forks", "hooks", "languages", "merges", "contributors", "deployments", "downloads",
		"events", "stargazers", "subscribers", "subscription", "tags", "teams"} {
		r[k+"_url"] = u + "/" + k
	}
	for _, k := range []string{"archive", "assignees", "blobs", "branches", "collaborators", "comments", "commits",
		"compare", "contents", "git_commits", "git_refs", "git_tags", "issue_comment", "issue_events", "issues",
		"keys", "labels", "milestones", "notifications", "pulls", "releases", "statuses", "trees"} {
		r[k+"_url"] = u + "/" + k + "{/id}"
	}
	return r
}

func ghLink(href string) obj { return obj{"href": href} }

func (g *GitHub) pullJSON(p *ghPull) obj {
	full := p.repo
	api := ghAPI + "/repos/" + full
	num := fmt.Sprint(p.number)
	author := g.userJSON(p.author)
	repo := ghRepoJSON(full, 500, ghUserJSON(strings.Split(full, "/")[0], 400), p.created)
	add, del := 0, 0
	for _, f := range p.files {
		a, d := f.Counts()
		add, del = add+a, del+d
	}
	state := "open"
	if p.closed || p.merged {
		state = "closed"
	}
	var closedAt, mergedAt any
	if state == "closed" {
		closedAt = ghTime(p.created)
	}
	if p.merged {
		mergedAt = ghTime(p.created)
	}
	return obj{
		"id": int64(p.number) + 9000, "node_id": "PR_" + num, "number": p.number, "state": state, "locked": false,
		"title": p.title, "body": nil, "draft": p.draft, "user": author, "labels": []any{}, "milestone": nil,
		"assignee": nil, "auto_merge": nil, "merged_by": nil, "merged": p.merged, "mergeable": nil,
		"mergeable_state": "unknown", "maintainer_can_modify": false, "merge_commit_sha": nil,
		"author_association": "CONTRIBUTOR", "created_at": ghTime(p.created), "updated_at": ghTime(p.created),
		"closed_at": closedAt, "merged_at": mergedAt,
		"comments": len(p.issueComments), "review_comments": len(p.comments), "commits": len(p.heads),
		"additions": add, "deletions": del, "changed_files": len(p.files),
		"url": api + "/pulls/" + num, "html_url": ghWeb + "/" + full + "/pull/" + num,
		"diff_url": ghWeb + "/" + full + "/pull/" + num + ".diff", "patch_url": ghWeb + "/" + full + "/pull/" + num + ".patch",
		"issue_url": api + "/issues/" + num, "commits_url": api + "/pulls/" + num + "/commits",
		"review_comments_url": api + "/pulls/" + num + "/comments", "review_comment_url": api + "/pulls/comments{/number}",
		"comments_url": api + "/issues/" + num + "/comments", "statuses_url": api + "/statuses/" + p.head,
		"base": obj{"label": "acme:main", "ref": "main", "sha": p.base, "repo": repo, "user": repo["owner"]},
		"head": obj{"label": p.author + ":topic", "ref": "topic", "sha": p.head, "repo": repo, "user": author},
		"_links": obj{
			"self": ghLink(api + "/pulls/" + num), "html": ghLink(ghWeb + "/" + full + "/pull/" + num),
			"issue": ghLink(api + "/issues/" + num), "comments": ghLink(api + "/issues/" + num + "/comments"),
			"review_comments": ghLink(api + "/pulls/" + num + "/comments"),
			"review_comment":  ghLink(api + "/pulls/comments{/number}"),
			"commits":         ghLink(api + "/pulls/" + num + "/commits"), "statuses": ghLink(api + "/statuses/" + p.head),
		},
	}
}

func (g *GitHub) commentJSON(p *ghPull, c *ghComment) obj {
	api := ghAPI + "/repos/" + p.repo
	html := fmt.Sprintf("%s/%s/pull/%d#discussion_r%d", ghWeb, p.repo, p.number, c.id)
	o := obj{
		"id": c.id, "node_id": fmt.Sprintf("PRRC_%d", c.id), "url": fmt.Sprintf("%s/pulls/comments/%d", api, c.id),
		"pull_request_review_id": c.reviewID, "diff_hunk": c.diffHunk, "path": c.path,
		"commit_id": c.commitID, "original_commit_id": c.originalCommitID, "user": g.userJSON(c.user), "body": c.body,
		"created_at": ghTime(c.created), "updated_at": ghTime(c.created), "html_url": html,
		"pull_request_url": fmt.Sprintf("%s/pulls/%d", api, p.number), "author_association": "CONTRIBUTOR",
		"_links": obj{"self": ghLink(fmt.Sprintf("%s/pulls/comments/%d", api, c.id)), "html": ghLink(html),
			"pull_request": ghLink(fmt.Sprintf("%s/pulls/%d", api, p.number))},
		"side": c.side, "original_line": c.line, "subject_type": "line", "original_position": c.position,
	}
	if !c.outdated {
		// An outdated comment has no line or position on the current diff;
		// GitHub sends null, which this schema version types as a plain
		// integer, so the fake leaves them out.
		o["line"], o["position"] = c.line, c.position
	}
	if c.startLine != 0 {
		o["start_line"], o["original_start_line"], o["start_side"] = c.startLine, c.startLine, c.startSide
	} else {
		o["start_line"], o["original_start_line"], o["start_side"] = nil, nil, nil
	}
	if c.inReplyTo != 0 {
		o["in_reply_to_id"] = c.inReplyTo
	}
	return o
}

func (g *GitHub) reviewJSON(p *ghPull, r *ghReview) obj {
	html := fmt.Sprintf("%s/%s/pull/%d#pullrequestreview-%d", ghWeb, p.repo, p.number, r.id)
	o := obj{
		"id": r.id, "node_id": fmt.Sprintf("PRR_%d", r.id), "user": g.userJSON(r.user), "body": r.body,
		"state": r.state, "commit_id": r.commitID, "html_url": html, "author_association": "CONTRIBUTOR",
		"pull_request_url": fmt.Sprintf("%s/repos/%s/pulls/%d", ghAPI, p.repo, p.number),
		"_links":           obj{"html": ghLink(html), "pull_request": ghLink(fmt.Sprintf("%s/repos/%s/pulls/%d", ghAPI, p.repo, p.number))},
	}
	if r.state != "PENDING" {
		o["submitted_at"] = ghTime(r.submitted)
	}
	return o
}

func (g *GitHub) issueCommentJSON(p *ghPull, c *ghIssueComment) obj {
	return obj{
		"id": c.id, "node_id": fmt.Sprintf("IC_%d", c.id), "body": c.body, "user": g.userJSON(c.user),
		"url":        fmt.Sprintf("%s/repos/%s/issues/comments/%d", ghAPI, p.repo, c.id),
		"html_url":   fmt.Sprintf("%s/%s/pull/%d#issuecomment-%d", ghWeb, p.repo, p.number, c.id),
		"issue_url":  fmt.Sprintf("%s/repos/%s/issues/%d", ghAPI, p.repo, p.number),
		"created_at": ghTime(c.created), "updated_at": ghTime(c.created), "author_association": "CONTRIBUTOR",
	}
}

func diffEntryJSON(repo, head string, f patchFile, maxPatch int) obj {
	add, del := f.Counts()
	status := map[string]string{"added": "added", "deleted": "removed", "modified": "modified", "renamed": "renamed", "copied": "copied"}[f.Status.String()]
	o := obj{
		"sha": fmt.Sprintf("%040x", len(f.Path)*7919+add*31+del), "filename": f.Path, "status": status,
		"additions": add, "deletions": del, "changes": add + del,
		"blob_url":     fmt.Sprintf("%s/%s/blob/%s/%s", ghWeb, repo, head, f.Path),
		"raw_url":      fmt.Sprintf("%s/%s/raw/%s/%s", ghWeb, repo, head, f.Path),
		"contents_url": fmt.Sprintf("%s/repos/%s/contents/%s?ref=%s", ghAPI, repo, f.Path, head),
	}
	if body := f.Body(); body != "" && !f.Binary && (maxPatch == 0 || len(body) <= maxPatch) {
		o["patch"] = body
	}
	if f.Status.String() == "renamed" {
		o["previous_filename"] = f.OldPath
	}
	return o
}

// ghErr is GitHub's basic-error body.
func ghErr(status int, message, docs string) obj {
	return obj{"message": message, "documentation_url": docs, "status": fmt.Sprint(status)}
}

// ghValidation is GitHub's 422 body with errors given as plain strings
// (validation-error-simple), as the review endpoints answer.
func ghValidation(docs string, errs ...string) obj {
	return obj{"message": "Unprocessable Entity", "errors": errs, "documentation_url": docs, "status": "422"}
}
