package tokenizer_test

import (
	"fmt"

	"github.com/sottolabs/sotto/llm/tokenizer"
)

// A SentencePiece vocabulary merges the best-scoring pairs first; characters
// it lacks fall back to byte tokens.
func ExampleSentencePiece() {
	tokens := []string{"<unk>", "<s>", "</s>", "▁", "h", "i", "▁h", "▁hi", "<0x21>"}
	scores := []float32{0, 0, 0, -5, -5, -5, -1, -2, 0}
	types := []int32{2, 3, 3, 1, 1, 1, 1, 1, 6}
	sp := tokenizer.NewSentencePiece(tokens, scores, types, 1, 2)
	ids := sp.Encode("hi!", true, false)
	fmt.Println(ids, sp.Decode(ids))
	// Output: [1 7 8] hi!
}
