package whisper

import (
	"fmt"

	"github.com/sottolabs/sotto/internal/tensor"
)

// GGMLType is a tensor element type as GGML numbers it (the number a GGML
// Whisper file stores per tensor).
type GGMLType uint32

// The element types whisper.cpp writes into Whisper model files.
const (
	TypeF32  GGMLType = 0
	TypeF16  GGMLType = 1
	TypeQ4_0 GGMLType = 2
	TypeQ4_1 GGMLType = 3
	TypeQ5_0 GGMLType = 6
	TypeQ5_1 GGMLType = 7
	TypeQ8_0 GGMLType = 8
	TypeQ2_K GGMLType = 10
	TypeQ3_K GGMLType = 11
	TypeQ4_K GGMLType = 12
	TypeQ5_K GGMLType = 13
	TypeQ6_K GGMLType = 14
	TypeBF16 GGMLType = 30
)

// typeInfo is a block size in elements and bytes (facts from GGML's type
// table).
type typeInfo struct {
	name         string
	elems, bytes int
}

var ggmlTypes = map[GGMLType]typeInfo{
	TypeF32:  {"F32", 1, 4},
	TypeF16:  {"F16", 1, 2},
	TypeQ4_0: {"Q4_0", 32, 18},
	TypeQ4_1: {"Q4_1", 32, 20},
	TypeQ5_0: {"Q5_0", 32, 22},
	TypeQ5_1: {"Q5_1", 32, 24},
	TypeQ8_0: {"Q8_0", 32, 34},
	TypeQ2_K: {"Q2_K", 256, 84},
	TypeQ3_K: {"Q3_K", 256, 110},
	TypeQ4_K: {"Q4_K", 256, 144},
	TypeQ5_K: {"Q5_K", 256, 176},
	TypeQ6_K: {"Q6_K", 256, 210},
	TypeBF16: {"BF16", 1, 2},
}

// String returns GGML's name of the type, e.g. "Q5_0".
func (t GGMLType) String() string {
	if ti, ok := ggmlTypes[t]; ok {
		return ti.name
	}
	return fmt.Sprintf("type(%d)", uint32(t))
}

// Known reports whether t is a GGML type this package can size.
func (t GGMLType) Known() bool { _, ok := ggmlTypes[t]; return ok }

// DType returns the internal/tensor type of t and whether the tensor
// package computes with it.
func (t GGMLType) DType() (tensor.DType, bool) {
	d := tensor.DType(t)
	return d, d.Supported()
}

// Size returns the size in bytes of n elements of t, or an error when t is
// unknown, n is not a whole number of its blocks, or the size overflows.
func (t GGMLType) Size(n int64) (int64, error) {
	ti, ok := ggmlTypes[t]
	if !ok {
		return 0, fmt.Errorf("%w: unknown tensor type %d", ErrFormat, uint32(t))
	}
	if n < 0 || n%int64(ti.elems) != 0 {
		return 0, fmt.Errorf("%w: %d elements are not a whole number of %d-element %v blocks", ErrFormat, n, ti.elems, t)
	}
	blocks := n / int64(ti.elems)
	if blocks > (1<<62)/int64(ti.bytes) {
		return 0, fmt.Errorf("%w: tensor size overflows", ErrFormat)
	}
	return blocks * int64(ti.bytes), nil
}

// FType is a model file's weight type code: the type of its big matrices
// ("mostly F16", "mostly Q5_0" ...), as GGML numbers file types. Files
// written by whisper.cpp's quantizer add 1000 times the quantization
// version; [Hparams.FType] holds the code with that removed.
type FType int32

// The file types whisper.cpp loads.
const (
	FTypeF32  FType = 0
	FTypeF16  FType = 1
	FTypeQ4_0 FType = 2
	FTypeQ4_1 FType = 3
	FTypeQ8_0 FType = 7
	FTypeQ5_0 FType = 8
	FTypeQ5_1 FType = 9
	FTypeQ2_K FType = 10
	FTypeQ3_K FType = 11
	FTypeQ4_K FType = 12
	FTypeQ5_K FType = 13
	FTypeQ6_K FType = 14
)

// qntVersionFactor separates the quantization version from the file type
// in the stored ftype field.
const qntVersionFactor = 1000

var ftypeWeights = map[FType]GGMLType{
	FTypeF32: TypeF32, FTypeF16: TypeF16, FTypeQ4_0: TypeQ4_0, FTypeQ4_1: TypeQ4_1,
	FTypeQ8_0: TypeQ8_0, FTypeQ5_0: TypeQ5_0, FTypeQ5_1: TypeQ5_1, FTypeQ2_K: TypeQ2_K,
	FTypeQ3_K: TypeQ3_K, FTypeQ4_K: TypeQ4_K, FTypeQ5_K: TypeQ5_K, FTypeQ6_K: TypeQ6_K,
}

// WeightType returns the element type of the model's large matrices for
// file type f, and false for an unknown code.
func (f FType) WeightType() (GGMLType, bool) { t, ok := ftypeWeights[f]; return t, ok }

// ConvType returns the element type of the two encoder convolution kernels,
// which whisper.cpp keeps in F16 unless the whole file is F32.
func (f FType) ConvType() GGMLType {
	if f == FTypeF32 {
		return TypeF32
	}
	return TypeF16
}
