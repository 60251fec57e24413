package tensor_test

import (
	"fmt"

	"github.com/sottolabs/sotto/internal/tensor"
)

// A Q8_0 matrix times a vector: the weights are quantized to 8 bits in
// blocks of 32, the vector too, and the products are summed as integers.
func ExamplePool_MatVec() {
	const rows, cols = 2, 32
	w := make([]float32, rows*cols)
	for i := range cols {
		w[i] = 1                   // row 0: all ones
		w[cols+i] = float32(i % 2) // row 1: every other one
	}
	data := make([]byte, rows*34)
	tensor.QuantizeQ8_0(w, data)
	m, err := tensor.NewMatrix(tensor.Q8_0, rows, cols, data)
	if err != nil {
		panic(err)
	}
	x := make([]float32, cols)
	for i := range x {
		x[i] = 0.5
	}
	var a tensor.Activation
	a.Set(x)
	pool := tensor.NewPool(1)
	defer pool.Close()
	out := make([]float32, rows)
	pool.MatVec(out, m, &a)
	fmt.Printf("%.2f\n", out)
	// Output: [16.00 8.00]
}
