package normalize_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/normalize"
	"github.com/sottolabs/sotto/normalize/normalizetest"
)

var proseParagraph = normalizetest.Prose

func BenchmarkNormalizeProse(b *testing.B) {
	text := strings.Repeat(proseParagraph+"\n", 64) // ≈ 66 KB
	ctx := context.Background()
	opts := normalize.Options{Language: "en", TopK: 1}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := normalize.Normalize(ctx, text, opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNormalizeParagraph1KB(b *testing.B) {
	ctx := context.Background()
	for _, k := range []int{1, 8} {
		b.Run("top_k="+string(rune('0'+k)), func(b *testing.B) {
			opts := normalize.Options{Language: "en", TopK: k}
			b.SetBytes(int64(len(proseParagraph)))
			for b.Loop() {
				if _, err := normalize.Normalize(ctx, proseParagraph, opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/paragraph")
		})
	}
}

func BenchmarkNormalizeITN(b *testing.B) {
	text := strings.Repeat("on the twenty fifth of july twenty twelve we paid twenty nine dollars fifty cents for two hundred kilograms and met at half past three ", 64)
	ctx := context.Background()
	opts := normalize.Options{Language: "en", Mode: normalize.ITN, TopK: 1}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := normalize.Normalize(ctx, text, opts); err != nil {
			b.Fatal(err)
		}
	}
}
