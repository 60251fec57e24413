// Package speaker computes speaker embeddings — fixed-length vectors of
// [Dim] numbers that describe a voice — and the similarity of two of them.
//
//	a, b := []float64{0.12, -0.40, 0.33}, []float64{0.10, -0.38, 0.35} // two embeddings of the same length
//	sim, err := speaker.Similarity(a, b)                                 // cosine, -1..1
//
// A similarity score does not decide real-world identity; it is evidence,
// to be thresholded by the application for its own error trade-off.
//
// # Backends
//
// Embedding extraction runs a registered [Driver] (see [Register]); the
// similarity of two embeddings is plain arithmetic and needs none.
package speaker
