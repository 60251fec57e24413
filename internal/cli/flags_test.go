package cli

import (
	"errors"
	"fmt"
	"testing"

	"github.com/sottolabs/sotto"
)

func TestFlagsRename(t *testing.T) {
	f := Flags{"audio_track": "--track", "audio_channel": "--channel", "end": "--start/--end", "speakers": "--speakers", "start": "--start"}
	plain := errors.New("audio_track 1 is out of range")
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"field first", sotto.Invalid("bad_request", "audio_track", "audio_track 2 is out of range: the WAV file has 1 audio track"),
			"--track 2 is out of range: the WAV file has 1 audio track"},
		{"wrapped: the file name kept", fmt.Errorf("a.wav: %w", sotto.Invalid("bad_request", "audio_channel", `audio_channel 3 is out of range: the track has 1 channel(s)`)),
			"a.wav: --channel 3 is out of range: the track has 1 channel(s)"},
		{"package prefix dropped, flag prefixed", sotto.Invalid("bad_request", "end", "align: window 100..200 s is not within the 6.120 s of audio"),
			"--start/--end: window 100..200 s is not within the 6.120 s of audio"},
		{"a longer field is not the field", sotto.Invalid("bad_request", "start", "start_margin must not be negative"),
			"--start: start_margin must not be negative"},
		{"the wrapped cause kept", &sotto.Error{Kind: sotto.ErrInvalidRequest, Param: "speakers", Message: "speakers must be 0 to 32", Err: errors.New("x")},
			"--speakers must be 0 to 32: x"},
		{"unmapped param unchanged", sotto.Invalid("bad_request", "language", "asr: language \"fr\" unsupported"), `asr: language "fr" unsupported`},
		{"not a sotto.Error unchanged", plain, "audio_track 1 is out of range"},
	} {
		got := f.Rename(tc.err)
		if got.Error() != tc.want {
			t.Errorf("%s: Rename = %q; want %q", tc.name, got.Error(), tc.want)
		}
		// Exit statuses and callers' checks see the same error.
		if !errors.Is(got, tc.err) {
			t.Errorf("%s: the renamed error does not wrap the original", tc.name)
		}
	}
	if f.Rename(nil) != nil {
		t.Error("Rename(nil) != nil")
	}
}
