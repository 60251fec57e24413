package server

import (
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Version is the service version reported in the OpenAPI document.
var Version = "0.1.0"

func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.openAPI())
}

type obj = map[string]any

// openAPI builds the OpenAPI 3.1 description of every route from the route
// table, so the document cannot drift from what is served.
// pathParam matches a path parameter of a route pattern ("{id}", or
// "{id...}" for the rest of the path, which OpenAPI writes "{id}").
var pathParam = regexp.MustCompile(`\{(\w+)(?:\.\.\.)?\}`)

// openAPIPath is a route pattern as an OpenAPI path template.
func openAPIPath(p string) string { return strings.ReplaceAll(p, "...}", "}") }

func (s *Server) openAPI() obj {
	paths := obj{}
	for _, rt := range s.routes() {
		if rt.Method == "OPTIONS" {
			continue
		}
		op := obj{
			"summary":     rt.Summary,
			"operationId": operationID(rt.Method, rt.Path),
			"tags":        []string{rt.Tag},
			"responses":   responses(rt),
		}
		if rt.Public {
			op["security"] = []any{}
		}
		if body := requestBody(rt); body != nil {
			op["requestBody"] = body
		}
		for _, m := range pathParam.FindAllStringSubmatch(rt.Path, -1) {
			ps, _ := op["parameters"].([]any)
			op["parameters"] = append(ps, obj{"name": m[1], "in": "path", "required": true, "schema": obj{"type": "string"}})
		}
		if rt.Path == pathAlignments {
			op["parameters"] = []any{obj{"name": "progress", "in": "header", "required": false,
				"description": "1 streams NDJSON progress lines ending with the result or an error line",
				"schema":      obj{"type": "string", "enum": []string{"1"}}}}
		}
		if rt.Method == "GET" && rt.Path == "/v1/audio/voices" {
			op["parameters"] = []any{obj{"name": "model", "in": "query", "required": false,
				"description": "list only this speech model's voices (builtin and saved)", "schema": obj{"type": "string"}}}
		}
		if rt.Path == pathMessages || rt.Path == pathCountTokens {
			op["parameters"] = []any{
				obj{"name": "anthropic-version", "in": "header", "schema": obj{"type": "string"},
					"description": "protocol version date, forwarded to the model"},
				obj{"name": "anthropic-beta", "in": "header", "schema": obj{"type": "string"},
					"description": "protocol beta flags, forwarded to the model"},
			}
		}
		p, _ := paths[openAPIPath(rt.Path)].(obj)
		if p == nil {
			p = obj{}
			paths[openAPIPath(rt.Path)] = p
		}
		p[strings.ToLower(rt.Method)] = op
	}
	return obj{
		"openapi": "3.1.0",
		"info": obj{
			"title":       "Sotto gateway API",
			"version":     Version,
			"description": "Local speech and language gateway: model management, text segmentation and normalization, transcription, forced alignment, speaker similarity, speech synthesis and generation.",
			"license":     obj{"name": "Apache-2.0", "identifier": "Apache-2.0"},
		},
		"servers":  []any{obj{"url": "http://127.0.0.1:1118", "description": "headless service (sotto-cli serve)"}, obj{"url": "http://127.0.0.1:1117", "description": "desktop gateway"}},
		"security": []any{obj{"bearer": []string{}}, obj{"apiKey": []string{}}},
		"paths":    paths,
		"components": obj{
			"securitySchemes": obj{
				"bearer": obj{"type": "http", "scheme": "bearer"},
				"apiKey": obj{"type": "apiKey", "in": "header", "name": "x-api-key"},
			},
			"schemas": schemas,
		},
	}
}

// operationID names an operation as code generators want it, an
// identifier: "delete_v1_models_id" for DELETE /v1/models/{id...}.
func operationID(method, path string) string {
	p := strings.NewReplacer("/v1/", "", "/", "_", ".", "_", "{", "", "}", "").
		Replace(strings.TrimPrefix(pathParam.ReplaceAllString(path, "{$1}"), "/"))
	return strings.ToLower(method) + "_" + p
}

func ref(name string) obj { return obj{"$ref": "#/components/schemas/" + name} }

// bodySchemas names the request and response schema of operations that
// have one in components.
var bodySchemas = map[string][2]string{
	"GET /health":                     {"", "Health"},
	"GET /v1/health":                  {"", "Health"},
	"GET /v1/models":                  {"", "ModelList"},
	"POST /v1/models/download":        {"ModelRequest", "DownloadJob"},
	"GET /v1/models/downloads":        {"", "DownloadList"},
	"GET /v1/models/{id...}":          {"", "Model"},
	"DELETE /v1/models/{id...}":       {"", "ModelDeleted"},
	"POST /v1/models/download/cancel": {"ModelRequest", "DownloadCancel"},
	"POST /v1/models/load":            {"ModelRequest", "LifecycleResult"},
	"POST /v1/models/unload":          {"ModelRequest", "LifecycleResult"},
	"GET /v1/models/running":          {"", "Running"},
	"POST /v1/text/normalizations":    {"NormalizationRequest", "NormalizationResult"},
	"POST /v1/text/segmentations":     {"SegmentationRequest", "SegmentationResult"},
	"POST /v1/audio/alignments":       {"AlignmentRequest", "AlignmentResult"},
	"POST /v1/audio/transcriptions":   {"TranscriptionRequest", "TranscriptionResult"},
	"POST /v1/speaker/similarity":     {"SimilarityRequest", "SimilarityResult"},
	"POST /v1/speaker/embeddings":     {"EmbeddingRequest", "EmbeddingResult"},
	"POST /v1/speaker/timelines":      {"TimelineRequest", "TimelineResult"},
	"POST /v1/audio/speech":           {"SpeechRequest", ""},
	"POST /v1/messages":               {"GenerationRequest", ""},
	"POST /v1/messages/count_tokens":  {"GenerationRequest", ""},
	"POST /v1/responses":              {"GenerationRequest", ""},
	"POST /v1/chat/completions":       {"GenerationRequest", ""},
	"POST /v1/tokenize":               {"GenerationRequest", ""},
	"GET /v1/audio/voices":            {"", "List"},
	"POST /v1/audio/voices":           {"VoiceRequest", "Voice"},
	"GET /v1/audio/voices/{id}":       {"", "Voice"},
	"PATCH /v1/audio/voices/{id}":     {"VoicePatch", "Voice"},
	"GET /v1/openapi.json":            {"", "OpenAPI"},
}

func requestBody(rt route) obj {
	if rt.Body == "" {
		return nil
	}
	schema := obj{"type": "object"}
	if n := bodySchemas[rt.Method+" "+rt.Path][0]; n != "" {
		schema = ref(n)
	}
	ct := "application/json"
	if rt.Body == "multipart" {
		ct = "multipart/form-data"
	}
	return obj{"required": true, "content": obj{ct: obj{"schema": schema}}}
}

func responses(rt route) obj {
	res := obj{}
	schema := obj{"type": "object"}
	if n := bodySchemas[rt.Method+" "+rt.Path][1]; n != "" {
		schema = ref(n)
	}
	content := obj{}
	types := rt.Produces
	if len(types) == 0 {
		types = []string{"application/json"}
	}
	for _, t := range types {
		switch t {
		case "application/json":
			content[t] = obj{"schema": schema}
		case "audio/wav":
			content[t] = obj{"schema": obj{"type": "string", "contentMediaType": "audio/wav"}}
		default:
			content[t] = obj{"schema": obj{"type": "string"}}
		}
	}
	res[strconv.Itoa(rt.Status)] = obj{"description": http.StatusText(rt.Status), "content": content}
	errs := rt.Errors
	if rt.Body != "" {
		errs = append(slices.Clone(errs), http.StatusRequestTimeout) // the body idle timeout
		slices.Sort(errs)
	}
	for _, st := range errs {
		e := obj{"description": errorDescriptions[st], "content": obj{"application/json": obj{"schema": ref("Error")}}}
		if st == 503 {
			e["headers"] = obj{"Retry-After": obj{"schema": obj{"type": "integer"}, "description": "seconds to wait before retrying"}}
		}
		res[strconv.Itoa(st)] = e
	}
	return res
}

var errorDescriptions = map[int]string{
	400: "invalid request (error.code, error.param)",
	401: "missing or invalid API key (missing_api_key, invalid_api_key)",
	403: "host or origin not allowed (host_not_allowed, origin_not_allowed)",
	404: "unknown model (model_not_found)",
	408: "the request body stopped arriving (request_timeout)",
	409: "the model is in use by a request (model_in_use) or, for a delete, being downloaded (download_active)",
	413: "request body over 512 MiB (request_too_large)",
	422: "understood but not satisfiable",
	501: "the capability is not in this build (capability_unavailable)",
	503: "a model is being prepared (model_downloading) or the service is busy (service_busy)",
}

var (
	str     = obj{"type": "string"}
	integer = obj{"type": "integer"}
	number  = obj{"type": "number"}
	boolean = obj{"type": "boolean"}
	strs    = obj{"type": "array", "items": str}
)

func object(required []string, props obj) obj {
	o := obj{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

// voiceFields are the writable fields of a saved voice (model only on
// create). reference_audio is the reference recording of a voice of the
// voice-cloning model: base64 of an audio file (WAV, MP3, FLAC, or what
// ffmpeg reads), at most 120 s, with at least 3 s of speech.
func voiceFields(create bool) obj {
	f := obj{"name": str, "base_voice": str, "design": str, "instructions": str, "language": str,
		"speed": number, "pitch": number, "clone_recipe": obj{"enum": []string{"controllable", "ultimate"}},
		"reference_audio": obj{"type": "string", "contentEncoding": "base64",
			"description": "reference recording for a voice of the voice-cloning model (Sotto/Clone): base64 of an audio file, at most 120 s, at least 3 s of speech"}}
	if create {
		f["model"] = str
	}
	return f
}

func list(item obj) obj {
	return object([]string{"object", "data"}, obj{"object": obj{"const": "list"}, "data": obj{"type": "array", "items": item}})
}

var schemas = obj{
	"Error": object([]string{"error"}, obj{"error": object([]string{"message", "type", "code"}, obj{
		"message": str, "type": str, "code": str, "param": str,
		"alignment": object([]string{"reason", "retry_recommended"}, obj{
			"reason":                obj{"enum": []string{"no_path", "no_words", "collapsed", "search_incomplete"}},
			"search_effort_used":    str,
			"search_path":           obj{"enum": []string{"whole_audio", "streaming"}},
			"search_limit":          obj{"enum": []string{"none", "budget", "graph_size", "estimate_overflow", "streaming"}},
			"retry_recommended":     boolean,
			"estimated_extra_bytes": integer,
		}),
	})}),
	"Health": object([]string{"status", "license"}, obj{"status": obj{"const": "ok"}, "license": obj{"enum": []string{"active", "inactive"}}}),
	"Model": object([]string{"id", "object", "created", "owned_by", "supported_endpoints", "features", "execution_location", "default_for"}, obj{
		"id": str, "object": obj{"const": "model"}, "created": integer, "owned_by": str,
		"supported_endpoints": strs, "features": strs, "execution_location": str, "default_for": strs,
		"x_sotto": obj{"type": "object", "description": "Sotto extensions: download state, disk_bytes (what a delete frees), languages, normalization table (Skylark)"},
	}),
	"ModelDeleted": object([]string{"id", "object", "deleted"}, obj{
		"id": str, "object": obj{"const": "model"}, "deleted": boolean,
		"x_sotto": object(nil, obj{"bytes_freed": integer, "catalog_entry_removed": boolean, "unloaded": boolean}),
	}),
	"ModelList":    list(ref("Model")),
	"ModelRequest": object([]string{"model"}, obj{"model": str}),
	"DownloadJob": object([]string{"model", "state", "bytes_downloaded", "total_bytes", "error"}, obj{
		"model": str, "state": obj{"enum": []string{"downloading", "cancelling", "completed", "cancelled", "failed"}},
		"bytes_downloaded": integer, "total_bytes": integer, "error": obj{"type": []string{"string", "null"}},
		"x_sotto": object(nil, obj{"retry": object([]string{"failures", "last_error", "next_attempt_at"}, obj{
			"failures": integer, "last_error": str, "next_attempt_at": obj{"type": "string", "format": "date-time"}})}),
	}),
	"DownloadList":    list(ref("DownloadJob")),
	"DownloadCancel":  object([]string{"model", "state"}, obj{"model": str, "state": str}),
	"LifecycleResult": object([]string{"success", "model", "status"}, obj{"success": boolean, "model": str, "status": obj{"enum": []string{"loaded", "unloaded"}}}),
	"Running": object([]string{"object", "data", "runtime"}, obj{
		"object": obj{"const": "list"},
		"data":   obj{"type": "array", "items": object([]string{"id", "status"}, obj{"id": str, "status": object([]string{"value"}, obj{"value": str})})},
		"runtime": object([]string{"state"}, obj{"state": obj{"enum": []string{"running", "loading"}},
			"queues": obj{"type": "object", "additionalProperties": object(nil, obj{"queued": integer, "running": integer, "limit": integer})}}),
	}),
	"NormalizationRequest": object([]string{"text", "language"}, obj{
		"text": str, "language": str, "model": str, "mode": obj{"enum": []string{"tn", "itn"}},
		"top_k": obj{"type": "integer", "minimum": 1, "maximum": 16}, "classes": strs,
	}),
	"NormalizationResult": object([]string{"task", "model", "language", "mode", "text", "alternatives"}, obj{
		"task": obj{"const": "normalize"}, "model": str, "language": str, "mode": str, "text": str,
		"alternatives": obj{"type": "array", "items": object([]string{"rank", "text", "spans"}, obj{
			"rank": integer, "text": str,
			"spans": obj{"type": "array", "items": object([]string{"start_byte", "end_byte", "class", "source", "output"}, obj{
				"start_byte": integer, "end_byte": integer, "class": str, "source": str, "output": str})},
		})},
	}),
	"SegmentationRequest": object(nil, obj{
		"text": str, "segments": obj{"type": "array", "items": object([]string{"text"}, obj{
			"text": str, "start": number, "end": number, "speaker": obj{"type": []string{"string", "null"}},
			"words": obj{"type": "array", "items": object(nil, obj{"word": str, "start": number, "end": number})}})},
		"file": str, "language": obj{"type": "string", "description": "BCP 47 tag (Sotto extension); omit to guess from the text"},
		"threshold": number, "paragraph_threshold": number, "min_chars": integer, "max_chars": integer,
		"start_margin": number, "end_margin": number, "options": obj{"type": "object"},
	}),
	"SegmentationResult": object([]string{"task", "text", "segments"}, obj{
		"task": obj{"const": "segment"}, "text": str,
		"segments": obj{"type": "array", "items": object([]string{"text"}, obj{"text": str, "start": number, "end": number, "speaker": obj{"type": []string{"string", "null"}}})},
	}),
	"AlignmentRequest": object([]string{"file"}, obj{
		"file": obj{"type": "string", "contentMediaType": "application/octet-stream"}, "text": str, "text_path": str,
		"model": str, "language": str, "start": number, "end": number,
		"search_effort":     obj{"enum": []string{"", "standard", "extended", "auto"}},
		"protected_terms[]": strs, "text_normalization": str, "audio_track": integer, "audio_channel": str,
		"semantic_sentence_enabled": boolean, "min_chars": integer, "max_chars": integer, "start_margin": number, "end_margin": number,
	}),
	"AlignmentResult": object([]string{"task", "duration", "text", "segments", "usage"}, obj{
		"task": obj{"const": "align"}, "duration": number, "language": str, "language_candidates": strs, "text": str,
		"segments": obj{"type": "array", "items": object([]string{"id", "start", "end", "text", "speaker"}, obj{
			"id": integer, "start": number, "end": number, "text": str, "speaker": obj{"type": []string{"string", "null"}},
			"words": obj{"type": "array", "items": object([]string{"word", "start", "end", "score"}, obj{"word": str, "start": number, "end": number, "score": number})},
		})},
		"normalization_regions": obj{"type": "array", "items": obj{"type": "object"}},
		"search_effort_used":    str, "search_retried": boolean,
		"usage": object([]string{"type", "seconds"}, obj{"type": str, "seconds": number}),
	}),
	"TranscriptionRequest": object([]string{"file"}, obj{
		"file": obj{"type": "string", "contentMediaType": "application/octet-stream"}, "model": str, "language": str,
		"prompt":          str,
		"response_format": obj{"enum": []string{"json", "verbose_json", "text", "srt", "vtt", "diarized_json"}}, "stream": boolean,
		"timestamp_granularities[]": obj{"type": "array", "items": obj{"enum": []string{"word", "segment"}}},
		"temperature":               obj{"type": "number", "const": 0},
		"audio_track":               integer, "audio_channel": str,
	}),
	"TranscriptionResult": obj{"oneOf": []any{
		object([]string{"text", "duration"}, obj{"text": str, "duration": number,
			"usage": object([]string{"type", "seconds"}, obj{"type": str, "seconds": number})}),
		object([]string{"task", "duration", "text"}, obj{"task": obj{"const": "transcribe"}, "language": str,
			"duration": number, "text": str,
			"speakers": obj{"type": "array", "items": str, "description": "diarized_json only"},
			"segments": obj{"type": "array", "items": object([]string{"id", "start", "end", "text"}, obj{
				"id": integer, "start": number, "end": number, "text": str,
				"speaker": obj{"type": []string{"string", "null"}, "description": "diarized_json only"}})},
			"words": obj{"type": "array", "items": object([]string{"word", "start", "end"}, obj{
				"word": str, "start": number, "end": number, "confidence": number,
				"speaker": obj{"type": []string{"string", "null"}, "description": "diarized_json only"}})},
			"usage": object([]string{"type", "seconds"}, obj{"type": str, "seconds": number})}),
	}},
	"SimilarityRequest": object([]string{"embedding_a", "embedding_b"}, obj{
		"embedding_a": obj{"type": "array", "items": number, "minItems": 256, "maxItems": 256},
		"embedding_b": obj{"type": "array", "items": number, "minItems": 256, "maxItems": 256},
		"model":       str,
	}),
	"SimilarityResult": object([]string{"object", "model", "similarity"}, obj{
		"object": obj{"const": "speaker_similarity"}, "model": str, "similarity": obj{"type": "number", "minimum": -1, "maximum": 1}}),
	"EmbeddingRequest": object([]string{"file"}, obj{"file": obj{"type": "string", "contentMediaType": "application/octet-stream"}, "model": str,
		"start": number, "end": number, "audio_track": integer, "audio_channel": str}),
	"EmbeddingResult": object([]string{"object", "model", "embedding", "dimensions", "speech_seconds", "usage"}, obj{
		"object": obj{"const": "speaker_embedding"}, "model": str, "method": str,
		"embedding":  obj{"type": "array", "items": number, "minItems": 256, "maxItems": 256},
		"dimensions": integer, "speech_seconds": number,
		"usage": object([]string{"seconds"}, obj{"seconds": number}),
	}),
	"TimelineRequest": object([]string{"file"}, obj{"file": obj{"type": "string", "contentMediaType": "application/octet-stream"}, "model": str,
		"start": number, "end": number, "audio_track": integer, "audio_channel": str,
		"speakers": obj{"type": "integer", "minimum": 0, "maximum": 32}, "max_speakers": obj{"type": "integer", "minimum": 0, "maximum": 32},
		"response_format": obj{"enum": []string{"json", "rttm"}}}),
	"TimelineResult": object([]string{"object", "model", "duration", "speakers", "segments", "speech_seconds", "usage"}, obj{
		"object": obj{"const": "speaker_timeline"}, "model": str, "duration": number, "speakers": strs,
		"segments": obj{"type": "array", "items": object([]string{"id", "start", "end", "speaker"}, obj{
			"id": integer, "start": number, "end": number, "speaker": str})},
		"speech_seconds": number,
		"usage":          object([]string{"seconds"}, obj{"seconds": number}),
	}),
	"SpeechRequest": object([]string{"model", "voice"}, obj{
		"model": str, "voice": str, "input": str, "segments": obj{"type": "array", "items": obj{"type": "object"}},
		"response_format": obj{"const": "wav"}, "stream_format": obj{"enum": []string{"audio", "sse"}}, "language": str,
		"seed": integer, "speed": number, "instructions": obj{"type": []string{"string", "null"}},
		"clone_recipe": obj{"enum": []string{"controllable", "ultimate"}}, "retry_badcase": boolean,
	}),
	"VoiceRequest": object([]string{"name", "model", "base_voice"}, voiceFields(true)),
	"VoicePatch":   object(nil, voiceFields(false)),
	"Voice": object([]string{"id", "object", "name", "model", "base_voice", "speed", "pitch", "created_at", "updated_at"}, obj{
		"id": obj{"type": "string", "pattern": "^user:[0-9a-f-]{36}$"}, "object": obj{"const": "voice"}, "name": str, "model": str,
		"base_voice": str, "design": str, "instructions": str, "language": str, "speed": number, "pitch": number,
		"clone_recipe": obj{"enum": []string{"controllable", "ultimate"}},
		"reference":    object([]string{"seconds", "speech_seconds", "sha256"}, obj{"seconds": number, "speech_seconds": number, "sha256": str}),
		"created_at":   obj{"type": "string", "format": "date-time"}, "updated_at": obj{"type": "string", "format": "date-time"},
	}),
	"GenerationRequest": object([]string{"model"}, obj{"model": str, "stream": boolean}),
	"List":              list(obj{"type": "object"}),
	"OpenAPI":           obj{"type": "object"},
}
