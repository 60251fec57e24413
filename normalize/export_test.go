package normalize

// ReadForm exposes readForm to the external tests: the text the rules read.
func ReadForm(s string) string {
	r, _ := readForm(s)
	return r
}
