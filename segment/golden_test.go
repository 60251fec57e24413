package segment

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestGolden segments testdata/sample.txt (a hand-written mixed-language
// document) at several settings and compares with testdata/*.golden.json;
// run with -update to rewrite them after an intended change.
func TestGolden(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "sample.txt"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts Options
	}{
		{"sentences", Options{}},
		{"paragraphs", Options{ParagraphThreshold: Float(0.5)}},
		{"cues", Options{Length: &Length{MinChars: DefaultMinChars, MaxChars: DefaultMaxChars}}},
		{"threshold0.8", Options{Threshold: Float(0.8)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Text(context.Background(), string(text), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(res, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "sample."+tt.name+".golden.json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("Text(sample, %s) mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
