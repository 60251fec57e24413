package normalize

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sottolabs/sotto/backend"
)

func TestGoDriver(t *testing.T) {
	if got := Drivers(); !cmp.Equal(got, []string{"go"}) {
		t.Errorf("Drivers() = %v; want [go]", got)
	}
	b, err := Open(context.Background(), "", backend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	res, err := b.Normalize(context.Background(), "I paid $5.", Options{Language: "en", TopK: 1})
	if err != nil || res.Best() != "I paid five dollars." {
		t.Errorf("Normalize = %q, %v; want I paid five dollars.", res.Best(), err)
	}
}
