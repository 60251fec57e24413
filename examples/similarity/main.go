// Command similarity prints the cosine similarity of two speaker embeddings
// given as JSON arrays on the command line:
//
//	go run ./examples/similarity '[0.1, 0.2, ...]' '[0.1, 0.3, ...]'
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/sottolabs/sotto/speaker"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: similarity EMBEDDING_A EMBEDDING_B (JSON arrays)")
		os.Exit(2)
	}
	var a, b []float64
	if err := json.Unmarshal([]byte(os.Args[1]), &a); err != nil {
		fmt.Fprintln(os.Stderr, "embedding a:", err)
		os.Exit(2)
	}
	if err := json.Unmarshal([]byte(os.Args[2]), &b); err != nil {
		fmt.Fprintln(os.Stderr, "embedding b:", err)
		os.Exit(2)
	}
	sim, err := speaker.Similarity(a, b)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%.4f\n", sim)
}
