package model

import (
	"encoding/json"
	"fmt"
	"strings"

	"gitui/core/eval"
)

// CellName names a cell for people: "CDF(5,10) RLS at 60, draw 3", with its stage
// first when the run has several ("m=10: CDF(n,10) RLS at 5, draw 0").
func CellName(k eval.CellKey) string {
	s := fmt.Sprintf("%s at %s, draw %d", k.Series, fmtX(k.X), k.Rep)
	switch k.Stage {
	case "", "curve", "sweep":
		return s
	}
	return k.Stage + ": " + s
}

func fmtX(x float64) string { b, _ := json.Marshal(x); return string(b) }

// missingShown is how many missing cells MissingLine names before it counts the rest.
const missingShown = 5

// MissingLine returns one line naming the missing cells (the first few by CellName,
// then how many more): the Error of a result that lacks them.
func MissingLine(missing []eval.CellKey) string {
	var names []string
	for i, k := range missing {
		if i == missingShown {
			names = append(names, fmt.Sprintf("and %d more", len(missing)-missingShown))
			break
		}
		names = append(names, CellName(k))
	}
	return fmt.Sprintf("%d cells missing: %s", len(missing), strings.Join(names, "; "))
}
