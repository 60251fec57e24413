package segment

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
	res, err := b.Text(context.Background(), "It rained. We stayed in.", Options{})
	if err != nil || len(res.Segments) != 2 {
		t.Errorf("Text = %+v, %v; want two sentences", res, err)
	}
}
