package changeset

import "testing"

func TestNumbers_SharedForRealLinesBoundedForHostileOnes(t *testing.T) {
	var n numbers
	a, b := n.at(42), n.at(42)
	if a != b || *a != 42 {
		t.Errorf("line 42: pointers %p %p holding %d, want one shared int holding 42", a, b, *a)
	}
	huge := n.at(555555550)
	if *huge != 555555550 {
		t.Errorf("huge line number reads %d", *huge)
	}
	if len(n.table) > tableLimit {
		t.Errorf("table grew to %d entries for a claimed line number; limit %d", len(n.table), tableLimit)
	}
	if *a != 42 {
		t.Errorf("an earlier pointer changed to %d after the table grew", *a)
	}
}
