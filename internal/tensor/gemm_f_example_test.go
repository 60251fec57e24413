package tensor_test

import (
	"encoding/binary"
	"fmt"

	"github.com/sottolabs/sotto/internal/tensor"
)

// An F16 matrix times three activation vectors at once, as the Whisper
// encoder multiplies its weights by all 1500 positions of a window.
func ExamplePool_MatMulF() {
	const rows, cols = 4, 8
	data := make([]byte, 2*rows*cols)
	for r := range rows {
		for c := range cols {
			v := float32(0)
			if c == r {
				v = float32(r + 1) // row r picks element r, times r+1
			}
			binary.LittleEndian.PutUint16(data[2*(r*cols+c):], tensor.F32ToF16(v))
		}
	}
	m, err := tensor.NewMatrix(tensor.F16, rows, cols, data)
	if err != nil {
		panic(err)
	}
	xs := [][]float32{{1, 1, 1, 1, 0, 0, 0, 0}, {1, 2, 3, 4, 5, 6, 7, 8}, {0.5, 0, 0, -1, 9, 9, 9, 9}}
	outs := [][]float32{make([]float32, rows), make([]float32, rows), make([]float32, rows)}
	pool := tensor.NewPool(1)
	defer pool.Close()
	pool.MatMulF(outs, m, xs)
	for _, o := range outs {
		fmt.Println(o)
	}
	// Output:
	// [1 2 3 4]
	// [1 4 9 16]
	// [0.5 0 0 -4]
}
