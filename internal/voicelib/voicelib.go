// Package voicelib is the voice library: saved user voices (user:<uuid>),
// each a base voice of a speech model with its design, speaking style,
// speed, pitch, preferred clone recipe and reference recording (for the
// voice-cloning model), kept in an SQLite database in
// the data directory.
//
// The database runs in WAL mode with full synchronous commits through the
// pure-Go modernc.org/sqlite driver (no cgo): a write that returned is on
// disk, and a process killed in the middle of a write leaves the library as
// it was before that write.
package voicelib

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"

	"github.com/sottolabs/sotto"
)

// Voice is one saved voice. The JSON form is what the voice endpoints
// return.
type Voice struct {
	// ID is "user:<uuid>".
	ID     string `json:"id"`
	Object string `json:"object"` // always "voice"
	Name   string `json:"name"`
	// Model is the speech model the voice belongs to, e.g. "Sotto/Flite".
	Model string `json:"model"`
	// BaseVoice is the builtin voice it speaks with ("builtin:rms"), or
	// builtin:design, whose Design text then describes the voice.
	BaseVoice string `json:"base_voice"`
	// Design is the voice description for a builtin:design base.
	Design string `json:"design,omitempty"`
	// Instructions is the saved speaking style, used when a request sends
	// none.
	Instructions string `json:"instructions,omitempty"`
	// Language is the voice's preferred language ("" = the base voice's).
	Language string `json:"language,omitempty"`
	// Speed (1 = natural) and Pitch (semitones) are the saved controls.
	Speed float64 `json:"speed"`
	Pitch float64 `json:"pitch"`
	// CloneRecipe is the preferred clone recipe, "controllable" or
	// "ultimate", for a voice-cloning model; "" for none.
	CloneRecipe string `json:"clone_recipe,omitempty"`
	// Reference is the voice's reference recording, which a voice-cloning
	// model moves its base voice toward; nil for none.
	Reference *Reference `json:"reference,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
}

// Reference is a saved voice's reference recording. The library keeps the
// recording and the voice statistics measured from it in the same database
// row set as the voice, written in the same transaction.
type Reference struct {
	// Audio is the recording as a 16 kHz mono 16-bit WAV file. [Library.Get]
	// and [Library.List] leave it nil; [Library.ReferenceAudio] reads it.
	Audio []byte `json:"-"`
	// Profile is the JSON of the voice statistics measured from the
	// recording (tts.VoiceProfile).
	Profile json.RawMessage `json:"-"`
	// Seconds is the recording's duration, SpeechSeconds its speech after
	// the voice-activity gate.
	Seconds       float64 `json:"seconds"`
	SpeechSeconds float64 `json:"speech_seconds"`
	// SHA256 is the hex digest of Audio.
	SHA256 string `json:"sha256"`
}

// Patch is a partial update: nil fields keep their value.
type Patch struct {
	Name         *string  `json:"name"`
	BaseVoice    *string  `json:"base_voice"`
	Design       *string  `json:"design"`
	Instructions *string  `json:"instructions"`
	Language     *string  `json:"language"`
	Speed        *float64 `json:"speed"`
	Pitch        *float64 `json:"pitch"`
	CloneRecipe  *string  `json:"clone_recipe"`
	// Reference, when non-nil, replaces the reference recording. It is
	// not part of the JSON form: the server fills it from reference_audio.
	Reference *Reference `json:"-"`
}

// Library is an open voice library. It is safe for concurrent use by
// multiple goroutines.
type Library struct {
	db  *sql.DB
	now func() time.Time
}

const schema = `
CREATE TABLE IF NOT EXISTS voices (
	id            TEXT PRIMARY KEY,
	name          TEXT NOT NULL,
	model         TEXT NOT NULL,
	base_voice    TEXT NOT NULL,
	design        TEXT NOT NULL DEFAULT '',
	instructions  TEXT NOT NULL DEFAULT '',
	language      TEXT NOT NULL DEFAULT '',
	speed         REAL NOT NULL DEFAULT 1,
	pitch         REAL NOT NULL DEFAULT 0,
	clone_recipe  TEXT NOT NULL DEFAULT '',
	created_at    INTEGER NOT NULL,
	updated_at    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS voice_references (
	id             TEXT PRIMARY KEY REFERENCES voices(id) ON DELETE CASCADE,
	audio          BLOB NOT NULL,
	profile        TEXT NOT NULL,
	seconds        REAL NOT NULL,
	speech_seconds REAL NOT NULL,
	sha256         TEXT NOT NULL
)`

// Open opens (creating if needed) the library in the SQLite file at path.
func Open(ctx context.Context, path string) (*Library, error) {
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("voicelib: %w", err)
	}
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("voicelib: %s: %w", path, err)
	}
	return &Library{db: db, now: time.Now}, nil
}

// Close closes the database.
func (l *Library) Close() error { return l.db.Close() }

// Limits of the text fields.
const (
	maxName = 200
	maxText = 4000
)

// Validate checks v's fields (not the base voice's existence, which needs
// the model): a name, a model, a base voice, speed 0.25–4, pitch ±12,
// clone recipe, lengths. Errors are 400s naming the field.
func (v *Voice) Validate() error {
	switch {
	case strings.TrimSpace(v.Name) == "" || utf8.RuneCountInString(v.Name) > maxName:
		return sotto.Invalid("bad_request", "name", "name must be 1 to %d characters", maxName)
	case v.Model == "":
		return sotto.Invalid("bad_request", "model", "model (the speech model of the voice) is required")
	case !strings.HasPrefix(v.BaseVoice, "builtin:") || v.BaseVoice == "builtin:auto":
		return sotto.Invalid("bad_request", "base_voice", "base_voice must be a builtin voice of the model (GET /v1/audio/voices) or builtin:design")
	case v.BaseVoice == "builtin:design" && strings.TrimSpace(v.Design) == "":
		return sotto.Invalid("bad_request", "design", "a builtin:design voice needs its description in design")
	case len(v.Design) > maxText:
		return sotto.Invalid("bad_request", "design", "design is longer than %d bytes", maxText)
	case len(v.Instructions) > maxText:
		return sotto.Invalid("bad_request", "instructions", "instructions is longer than %d bytes", maxText)
	case math.IsNaN(v.Speed) || v.Speed < 0.25 || v.Speed > 4:
		return sotto.Invalid("bad_request", "speed", "speed %v is out of range (0.25 to 4)", v.Speed)
	case math.IsNaN(v.Pitch) || v.Pitch < -12 || v.Pitch > 12:
		return sotto.Invalid("bad_request", "pitch", "pitch %v is out of range (-12 to 12 semitones)", v.Pitch)
	case v.CloneRecipe != "" && v.CloneRecipe != "controllable" && v.CloneRecipe != "ultimate":
		return sotto.Invalid("bad_request", "clone_recipe", "clone_recipe must be controllable or ultimate")
	}
	return nil
}

// Create saves v under a new ID and returns it as stored. A zero Speed
// means 1.
func (l *Library) Create(ctx context.Context, v Voice) (Voice, error) {
	if v.Speed == 0 {
		v.Speed = 1
	}
	if err := v.Validate(); err != nil {
		return Voice{}, err
	}
	id, err := newID()
	if err != nil {
		return Voice{}, err
	}
	now := l.now().UTC().Truncate(time.Millisecond)
	v.ID, v.Object, v.CreatedAt, v.UpdatedAt = id, "voice", now, now
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return Voice{}, fmt.Errorf("voicelib: create: %w", err)
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `INSERT INTO voices (id, name, model, base_voice, design, instructions, language, speed, pitch, clone_recipe, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		v.ID, v.Name, v.Model, v.BaseVoice, v.Design, v.Instructions, v.Language, v.Speed, v.Pitch, v.CloneRecipe, now.UnixMilli(), now.UnixMilli())
	if err != nil {
		return Voice{}, fmt.Errorf("voicelib: create: %w", err)
	}
	if v.Reference != nil {
		if err := putReference(ctx, tx, v.ID, v.Reference); err != nil {
			return Voice{}, err
		}
	}
	if err := tx.Commit(); err != nil {
		return Voice{}, fmt.Errorf("voicelib: create: %w", err)
	}
	return v, nil
}

// putReference writes (or replaces) the reference of voice id, filling in
// its digest, and drops its Audio from r (the returned voice does not
// carry it).
func putReference(ctx context.Context, tx *sql.Tx, id string, r *Reference) error {
	if len(r.Audio) == 0 || !json.Valid(r.Profile) {
		return errors.New("voicelib: a reference needs its audio and a JSON profile")
	}
	sum := sha256.Sum256(r.Audio)
	r.SHA256 = hex.EncodeToString(sum[:])
	_, err := tx.ExecContext(ctx, `INSERT INTO voice_references (id, audio, profile, seconds, speech_seconds, sha256) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(id) DO UPDATE SET audio = excluded.audio, profile = excluded.profile, seconds = excluded.seconds,
		speech_seconds = excluded.speech_seconds, sha256 = excluded.sha256`,
		id, r.Audio, string(r.Profile), r.Seconds, r.SpeechSeconds, r.SHA256)
	if err != nil {
		return fmt.Errorf("voicelib: reference: %w", err)
	}
	r.Audio = nil
	return nil
}

// ReferenceAudio returns the reference recording of voice id (a 16 kHz
// mono WAV file), or a 404 error when the voice or its reference does not
// exist.
func (l *Library) ReferenceAudio(ctx context.Context, id string) ([]byte, error) {
	var b []byte
	err := l.db.QueryRowContext(ctx, `SELECT audio FROM voice_references WHERE id = ?`, id).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, sotto.NotFound("voice_not_found", "voice", "saved voice %q has no reference recording", id)
	}
	if err != nil {
		return nil, fmt.Errorf("voicelib: reference: %w", err)
	}
	return b, nil
}

// columns and from select a voice with its reference's metadata and
// profile (not its audio).
const (
	columns = `v.id, v.name, v.model, v.base_voice, v.design, v.instructions, v.language, v.speed, v.pitch, v.clone_recipe, v.created_at, v.updated_at,
	r.profile, r.seconds, r.speech_seconds, r.sha256`
	from = ` FROM voices v LEFT JOIN voice_references r ON r.id = v.id`
)

func scan(row interface{ Scan(...any) error }) (Voice, error) {
	var v Voice
	var created, updated int64
	var profile, sum sql.NullString
	var secs, speech sql.NullFloat64
	err := row.Scan(&v.ID, &v.Name, &v.Model, &v.BaseVoice, &v.Design, &v.Instructions, &v.Language, &v.Speed, &v.Pitch, &v.CloneRecipe, &created, &updated,
		&profile, &secs, &speech, &sum)
	v.Object = "voice"
	v.CreatedAt, v.UpdatedAt = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	if profile.Valid {
		v.Reference = &Reference{Profile: json.RawMessage(profile.String), Seconds: secs.Float64, SpeechSeconds: speech.Float64, SHA256: sum.String}
	}
	return v, err
}

// Get returns the voice with the given ID ("user:<uuid>"); an unknown ID is
// a 404 voice_not_found.
func (l *Library) Get(ctx context.Context, id string) (Voice, error) {
	v, err := scan(l.db.QueryRowContext(ctx, `SELECT `+columns+from+` WHERE v.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Voice{}, notFound(id)
	}
	if err != nil {
		return Voice{}, fmt.Errorf("voicelib: get: %w", err)
	}
	return v, nil
}

// List returns every saved voice, oldest first (in the order they were
// created).
func (l *Library) List(ctx context.Context) ([]Voice, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT `+columns+from+` ORDER BY v.created_at, v.rowid`)
	if err != nil {
		return nil, fmt.Errorf("voicelib: list: %w", err)
	}
	defer rows.Close()
	out := []Voice{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("voicelib: list: %w", err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Update applies p to the voice with the given ID in one transaction and
// returns the result; check, when non-nil, vets the updated voice before it
// is written (the server checks the base voice against the model).
func (l *Library) Update(ctx context.Context, id string, p Patch, check func(Voice) error) (Voice, error) {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return Voice{}, fmt.Errorf("voicelib: update: %w", err)
	}
	defer tx.Rollback()
	v, err := scan(tx.QueryRowContext(ctx, `SELECT `+columns+from+` WHERE v.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Voice{}, notFound(id)
	}
	if err != nil {
		return Voice{}, fmt.Errorf("voicelib: update: %w", err)
	}
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	set(&v.Name, p.Name)
	set(&v.BaseVoice, p.BaseVoice)
	set(&v.Design, p.Design)
	set(&v.Instructions, p.Instructions)
	set(&v.Language, p.Language)
	set(&v.CloneRecipe, p.CloneRecipe)
	if p.Speed != nil {
		v.Speed = *p.Speed
	}
	if p.Pitch != nil {
		v.Pitch = *p.Pitch
	}
	if p.Reference != nil {
		v.Reference = p.Reference
	}
	if err := v.Validate(); err != nil {
		return Voice{}, err
	}
	if check != nil {
		if err := check(v); err != nil {
			return Voice{}, err
		}
	}
	v.UpdatedAt = l.now().UTC().Truncate(time.Millisecond)
	_, err = tx.ExecContext(ctx, `UPDATE voices SET name = ?, base_voice = ?, design = ?, instructions = ?, language = ?, speed = ?, pitch = ?, clone_recipe = ?, updated_at = ? WHERE id = ?`,
		v.Name, v.BaseVoice, v.Design, v.Instructions, v.Language, v.Speed, v.Pitch, v.CloneRecipe, v.UpdatedAt.UnixMilli(), id)
	if err != nil {
		return Voice{}, fmt.Errorf("voicelib: update: %w", err)
	}
	if p.Reference != nil {
		if err := putReference(ctx, tx, id, p.Reference); err != nil {
			return Voice{}, err
		}
	}
	if err := tx.Commit(); err != nil {
		return Voice{}, fmt.Errorf("voicelib: update: %w", err)
	}
	return v, nil
}

// Delete removes the voice with the given ID; an unknown ID is a 404.
func (l *Library) Delete(ctx context.Context, id string) error {
	r, err := l.db.ExecContext(ctx, `DELETE FROM voices WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("voicelib: delete: %w", err)
	}
	if n, _ := r.RowsAffected(); n == 0 {
		return notFound(id)
	}
	return nil
}

func notFound(id string) error {
	return sotto.NotFound("voice_not_found", "voice", "no saved voice %q (GET /v1/audio/voices lists them)", id)
}

// newID returns "user:" and a random (version 4) UUID.
func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("user:%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}
