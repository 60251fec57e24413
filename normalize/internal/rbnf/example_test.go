package rbnf_test

import (
	"fmt"

	"github.com/sottolabs/sotto/normalize/internal/rbnf"
)

func Example() {
	rs, err := rbnf.ForLocale("fr")
	if err != nil {
		panic(err)
	}
	for _, n := range []int64{71, 80, 1999} {
		s, _ := rs.Format("%spellout-cardinal-masculine", n)
		fmt.Println(s)
	}
	o, _ := rs.Format("%spellout-ordinal-feminine", 1)
	fmt.Println(o)
	// Output:
	// soixante-et-onze
	// quatre-vingts
	// mille neuf cent quatre-vingt-dix-neuf
	// première
}
