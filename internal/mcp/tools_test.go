package mcp_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/mcp"
)

// TestTools_TheAgentIsOfferedFiveToolsThatRefuseUndeclaredArguments pins
// the tool list a model is shown (names, descriptions, input and output
// schemas) in testdata/golden/tools.json, and checks that every input
// schema refuses properties it does not declare, which is what keeps an
// "author" out of a request.
func TestTools_TheAgentIsOfferedFiveToolsThatRefuseUndeclaredArguments(t *testing.T) {
	cs := agent(t, newReview(t, readFile(t, "sample.patch")).svc)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		schema, _ := tool.InputSchema.(map[string]any)
		if ap, ok := schema["additionalProperties"]; !ok || !cmp.Equal(ap, false) {
			t.Errorf("%s: input schema additionalProperties = %v, want false", tool.Name, ap)
		}
		if len(tool.Description) < 200 {
			t.Errorf("%s: a %d-character description cannot tell a model what the tool is for", tool.Name, len(tool.Description))
		}
	}
	want := []string{mcp.ToolComment, mcp.ToolFocus, mcp.ToolRead, mcp.ToolResolve, mcp.ToolSuggest}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	golden(t, "tools.json", res.Tools)
	init := cs.InitializeResult()
	if init.Instructions == "" || init.ServerInfo.Name != "leanreview" {
		t.Errorf("initialize: instructions %q, server %+v", init.Instructions, init.ServerInfo)
	}
}
