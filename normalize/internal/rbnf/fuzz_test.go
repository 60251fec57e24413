package rbnf

import (
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that what it accepts prints
// (String) to text it parses back to the same rules, and that formatting
// any number with any accepted set terminates without panicking.
func FuzzParse(f *testing.F) {
	for _, l := range []string{"en", "ru", "pl", "ja", "hu", "ky"} {
		b, err := data.ReadFile("data/" + l + ".txt")
		if err != nil {
			f.Fatal(err)
		}
		// Seed with the first rule sets of each (the whole files are large).
		s := string(b)
		if len(s) > 3000 {
			s = s[:strings.LastIndex(s[:3000], "\n%")+1]
		}
		f.Add(s, int64(1234))
	}
	f.Add("%a:\n0: [x|y];\n5: five[ >>>];", int64(-7))
	f.Add("%a:\n-x: minus →→;\nx.x: ←← point →→;\n0: zero; one;\n10/1000: ←← $(cardinal,one{x}other{y})$[ →→];", int64(42))
	// One long literal: the output bound must hold without recursion (CI's
	// fuzzer found a 10 kB rule body that printed 10 kB).
	f.Add("%a:\n0: "+strings.Repeat("ab ", 3500)+";", int64(3))
	f.Fuzz(func(t *testing.T, src string, n int64) {
		rs, err := Parse("ru", src)
		if err != nil {
			return
		}
		out := rs.String()
		rs2, err := Parse("ru", out)
		if err != nil {
			t.Fatalf("Parse(String()) failed: %v\nString():\n%s", err, out)
		}
		if out2 := rs2.String(); out2 != out {
			t.Fatalf("String() is not a fixed point:\n%s\n---\n%s", out, out2)
		}
		for _, name := range rs.Names() {
			s, err := rs.Format(name, n)
			if err == nil && len(s) > maxOutput {
				t.Fatalf("Format(%s, %d) is %d bytes", name, n, len(s))
			}
		}
	})
}
