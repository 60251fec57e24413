package align

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/sphinx"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
)

// stubBackend is a Backend for the lazyBackend tests; it is never asked to
// align.
type stubBackend struct{ Backend }

func TestLazyBackendRetriesAfterFailedOpen(t *testing.T) {
	var opens int
	fail := errors.New("model missing")
	want := &stubBackend{}
	l := lazyBackend{open: func(context.Context) (Backend, error) {
		opens++
		if opens == 1 {
			return nil, fail
		}
		return want, nil
	}}
	ctx := context.Background()
	if _, err := l.get(ctx); !errors.Is(err, fail) {
		t.Fatalf("first get: err = %v; want %v", err, fail)
	}
	for i := range 3 {
		b, err := l.get(ctx)
		if err != nil || b != want {
			t.Fatalf("get #%d after a failed open = %v, %v; want the opened backend", i+2, b, err)
		}
	}
	if opens != 2 {
		t.Errorf("open called %d times; want 2 (one failure, one success, then kept)", opens)
	}
}

func TestLazyBackendOpensOnceForConcurrentCallers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var opens int
		want := &stubBackend{}
		l := lazyBackend{open: func(context.Context) (Backend, error) {
			opens++
			<-release
			return want, nil
		}}
		var wg sync.WaitGroup
		got := make([]Backend, 4)
		for i := range got {
			wg.Go(func() {
				b, err := l.get(context.Background())
				if err != nil {
					t.Errorf("get: %v", err)
				}
				got[i] = b
			})
			if i == 0 {
				synctest.Wait() // the first caller is the one opening
			}
		}
		// A caller whose ctx ends while another opens stops waiting.
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() { _, err := l.get(ctx); errc <- err }()
		synctest.Wait()
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Errorf("get with a cancelled ctx while opening: err = %v; want context.Canceled", err)
		}
		close(release)
		wg.Wait()
		for i, b := range got {
			if b != want {
				t.Errorf("caller %d got %v; want the one opened backend", i, b)
			}
		}
		if opens != 1 {
			t.Errorf("open called %d times; want 1", opens)
		}
	})
}

func TestAlignRejectsOtherModels(t *testing.T) {
	_, err := Align(context.Background(), sotto.Audio{}, "hello", Options{Model: "Sotto/Lattice-1"})
	var se *sotto.Error
	if !errors.Is(err, sotto.ErrInvalidRequest) || !errors.As(err, &se) || se.Param != "model" {
		t.Errorf("Align with Model Sotto/Lattice-1: err = %v; want an invalid-request *sotto.Error on param model", err)
	}
}

// TestAlignDefault runs the one-call Align on the JFK recording twice: the
// words come out in order, and the second call uses the backend the first
// one opened.
func TestAlignDefault(t *testing.T) {
	wav := sharedtestdata.Path(t, "speech", "en_jfk_16k.wav")
	if _, err := os.Stat(filepath.Join(sphinx.DefaultModelDir, "mdef")); err != nil {
		t.Skipf("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us): %v", err)
	}
	ctx := context.Background()
	a, _, err := audio.DecodeFile(ctx, wav, audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const text = "ask not what your country can do for you"
	var first Backend
	for i := range 2 {
		res, err := Align(ctx, a, text, Options{Language: "en"})
		if err != nil {
			t.Fatalf("Align #%d: %v", i+1, err)
		}
		var words []string
		for _, s := range res.Segments {
			for _, w := range s.Words {
				words = append(words, w.Word)
			}
		}
		if got := strings.Join(words, " "); got != text {
			t.Errorf("Align #%d words = %q; want %q", i+1, got, text)
		}
		b, err := defaultBackend.get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = b
		} else if b != first {
			t.Errorf("the second Align used backend %p; want the first one's %p", b, first)
		}
	}
}
