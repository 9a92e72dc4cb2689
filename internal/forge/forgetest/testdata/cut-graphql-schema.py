# cut-graphql-schema.py SCHEMA: prints the part of GitHub's public GraphQL
# schema (schema.graphql of the npm package @octokit/graphql-schema) that the
# fake GitHub serves: the types below, each with only the fields listed (None
# keeps every field), descriptions and directives copied unchanged. Interfaces
# other than Node are dropped from `implements`, since their types are not
# kept.
import re, sys
src = open(sys.argv[1]).read().split('\n')
keep = {
 'Query': ['repository'],
 'Repository': ['id', 'name', 'nameWithOwner', 'pullRequest'],
 'PullRequest': ['id', 'number', 'reviewThreads', 'title'],
 'PullRequestReviewThreadConnection': None,
 'PullRequestReviewThreadEdge': None,
 'PullRequestReviewThread': ['comments', 'diffSide', 'id', 'isCollapsed', 'isOutdated', 'isResolved', 'line', 'path', 'startLine'],
 'PullRequestReviewCommentConnection': None,
 'PullRequestReviewCommentEdge': None,
 'PullRequestReviewComment': ['body', 'databaseId', 'fullDatabaseId', 'id', 'path'],
 'PageInfo': None,
 'DiffSide': None,
 'BigInt': None,
 'Node': None,
}
out = []
starts = []
for n, line in enumerate(src):
    m = re.match(r'^(type|enum|scalar|interface|input|union) (\w+)', line)
    if m:
        starts.append((n, m.group(1), m.group(2)))
for n, kind, name in starts:
    if name not in keep:
        continue
    # description above
    d = n
    if d > 0 and src[d-1] == '"""':
        d -= 2
        while src[d] != '"""':
            d -= 1
    desc = src[d:n]
    if kind == 'scalar':
        out += desc + [src[n], '']
        continue
    e = n
    while src[e] != '}':
        e += 1
    body = src[n+1:e]
    header = src[n]
    if 'implements' in header:
        header = re.sub(r' implements [^{]*\{', ' implements Node {', header) if keep[name] is None or 'id' in (keep[name] or []) else re.sub(r' implements [^{]*\{', ' {', header)
    chunks, k = [], 0
    while k < len(body):
        if body[k].strip() == '':
            k += 1; continue
        c = []
        if body[k].strip() == '"""':
            c.append(body[k]); k += 1
            while body[k].strip() != '"""':
                c.append(body[k]); k += 1
            c.append(body[k]); k += 1
        c.append(body[k]); k += 1
        if c[-1].rstrip().endswith('('):
            while not body[k].startswith('  )'):
                c.append(body[k]); k += 1
            c.append(body[k]); k += 1
        chunks.append(c)
    kept = []
    for c in chunks:
        defline = c[c.index(c[0], 1) + 1] if c[0].strip() == '"""' else c[0]
        fm = re.match(r'^  (\w+)', defline)
        if keep[name] is None or fm.group(1) in keep[name]:
            kept.append(c)
    out += desc + [header]
    for idx, c in enumerate(kept):
        out += c
        if idx < len(kept)-1: out.append('')
    out += ['}', '']
print('\n'.join(out).rstrip())
