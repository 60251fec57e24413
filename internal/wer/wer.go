// Package wer counts word errors: the edit distance between a reference
// and a hypothesis word sequence (substitutions, deletions and insertions
// each count one), the numerator of the word error rate that the
// recognizer, speech-synthesis and alignment evaluations report.
package wer

// Errors is the number of substitutions, deletions and insertions that turn
// ref into hyp (the word-level Levenshtein distance).
func Errors(ref, hyp []string) int {
	return ErrorsFunc(ref, hyp, func(r, h string) bool { return r == h })
}

// ErrorsFunc is Errors with words matching when eq(ref word, hyp word) is
// true, for evaluations that count some spellings as the same word.
func ErrorsFunc(ref, hyp []string, eq func(r, h string) bool) int {
	prev := make([]int, len(hyp)+1)
	cur := make([]int, len(hyp)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ref); i++ {
		cur[0] = i
		for j := 1; j <= len(hyp); j++ {
			c := prev[j-1]
			if !eq(ref[i-1], hyp[j-1]) {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(hyp)]
}
