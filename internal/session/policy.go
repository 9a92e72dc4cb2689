package session

import "errors"

// ErrForbidden is returned when an actor attempts what the policy reserves
// for another: an agent moving the cursor or touching the human's drafts.
var ErrForbidden = errors.New("not allowed for this actor")

// CanEdit reports whether actor may edit or delete d: only its author may.
// An agent cannot rewrite the human's words, and the human answers an
// agent's remark by resolving it rather than deleting it, so both sides keep
// an honest record of what the other said.
func CanEdit(actor Actor, d Draft) error {
	if actor != d.Author {
		return ErrForbidden
	}
	return nil
}
