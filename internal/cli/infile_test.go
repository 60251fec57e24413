package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/sottolabs/sotto/audio"
)

// TestInFile: an error gets the input's name in front unless its message
// names the path already, and stays what it wraps.
func TestInFile(t *testing.T) {
	base := errors.New("audio: the file is empty")
	for _, c := range []struct {
		path string
		err  error
		want string
	}{
		{"talk.wav", base, "talk.wav: audio: the file is empty"},
		{"-", base, "standard input: audio: the file is empty"},
		{"/no/such.wav", fmt.Errorf("audio: %w", &fs.PathError{Op: "open", Path: "/no/such.wav", Err: fs.ErrNotExist}),
			"audio: open /no/such.wav: file does not exist"},
		{"talk.wav", nil, ""},
	} {
		got := InFile(c.path, c.err)
		if c.err == nil {
			if got != nil {
				t.Errorf("InFile(%q, nil) = %v; want nil", c.path, got)
			}
			continue
		}
		if got.Error() != c.want || !errors.Is(got, c.err) {
			t.Errorf("InFile(%q, %v) = %q; want %q, wrapping the error", c.path, c.err, got, c.want)
		}
	}
	// What the tools see: DecodeAudio's error for an empty file does not
	// name it; InFile does.
	p := filepath.Join(t.TempDir(), "empty.wav")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := DecodeAudio(context.Background(), p, nil, audio.Options{})
	if err == nil {
		t.Fatal("an empty file decoded")
	}
	if got := InFile(p, err).Error(); got != p+": "+err.Error() {
		t.Errorf("InFile(empty file) = %q; want the path in front of %q", got, err)
	}
}
