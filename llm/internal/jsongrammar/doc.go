// Package jsongrammar turns a JSON schema into a byte-level matcher for
// grammar-constrained decoding: at each step the engine keeps only the
// tokens whose bytes the matcher accepts, so the output always parses as
// JSON and validates against the schema.
//
// The supported schema subset is what structured-output APIs use: type
// (one or a list), properties with required (properties are written in
// declaration order, optional ones may be left out), items, minItems,
// maxItems, enum, const, anyOf, oneOf, a one-element allOf, local $ref
// (#/$defs/…, #/definitions/…, #), nullable, minLength and maxLength,
// additionalProperties (a schema for the values of an object without
// properties). Annotations (title, description, default, examples,
// format, $schema, $id, $comment, strict) are ignored. A keyword that
// would constrain values in a way the matcher does not enforce (pattern,
// minimum, multipleOf …) makes [Compile] fail with [ErrUnsupported]
// rather than produce output that might not validate.
//
// Output is compact JSON: no white space except one optional space after
// ':' and ','.
//
//	g, err := jsongrammar.Compile([]byte(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`))
//	c := jsongrammar.NewConstraint(g, jsongrammar.NewVocab(pieces, eog))
//	c.Mask(logits) // before each token is drawn
//	c.Accept(id)   // after
//
// # How it works
//
// The schema becomes a graph of nodes (literals, sequences, alternatives,
// repetitions, and string and number lexers). A [Matcher] runs it on
// bytes as a set of threads, each a persistent stack of frames, so that
// trying a continuation never copies state. A [Constraint] masks a
// vocabulary sorted by piece: tokens that share a prefix are matched once,
// and a dead prefix rules out every token that starts with it. Inside a
// string, pieces of plain characters are admitted by their length alone.
// [ToolCall] builds the grammar of a forced tool call in a model family's
// syntax.
package jsongrammar
