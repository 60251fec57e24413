package align

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sottolabs/sotto"
)

// TestCollapsedEndToEnd reaches the collapsed failure through Align: five
// seconds of faint room noise (−70 dBFS, no speech: the wrong file, or a
// muted microphone) with a six-word transcript. The standard beam loses
// every path (no_path, a wider search recommended); the extended search of
// auto finds one, but only by squeezing the words into a few frames at
// the edge of the noise, which is reported as collapsed, with no retry
// recommended. The streaming path (its last chunk is the whole audio)
// reports the same.
func TestCollapsedEndToEnd(t *testing.T) {
	l := openTestBackend(t)
	quiet := noise(5 * sotto.SampleRate)
	for i := range quiet {
		quiet[i] *= 0.03
	}
	a := sotto.Audio{Samples: quiet}
	const text = "hello world this is a test"
	for _, path := range []string{PathWholeAudio, PathStreaming} {
		t.Run(path, func(t *testing.T) {
			l.knobs.streamSeconds = 0
			if path == PathStreaming {
				l.knobs.streamSeconds = 1
			}
			_, err := l.Align(context.Background(), a, text, Options{Language: "en", SearchEffort: EffortStandard})
			std := failure(t, err, "alignment_failed")
			if std.Reason != ReasonNoPath || !std.RetryRecommended {
				t.Errorf("standard search: %+v; want no_path with a retry recommended", std)
			}
			_, err = l.Align(context.Background(), a, text, Options{Language: "en", SearchEffort: EffortAuto})
			want := Failure{Reason: ReasonCollapsed, SearchEffortUsed: EffortExtended, SearchPath: path, SearchLimit: LimitNone}
			if d := cmp.Diff(want, failure(t, err, "alignment_failed")); d != "" {
				t.Errorf("auto: failure (-want +got):\n%s", d)
			}
			var se *sotto.Error
			if errors.As(err, &se) && (!strings.Contains(se.Message, "collapsed") || strings.Contains(se.Message, "may succeed")) {
				t.Errorf("message %q; want the collapsed reason and no retry advice", se.Message)
			}
		})
	}
}
