// Command rbnfgen writes the rule data of package rbnf from the cldr-rbnf
// npm package (CLDR's rule-based number formats, published by the Unicode
// Consortium in the cldr-json project).
//
//	cd /tmp && npm pack cldr-rbnf    # cldr-rbnf-48.2.0.tgz
//	go generate ./normalize/internal/rbnf   (with RBNF_TGZ=/tmp/cldr-rbnf-48.2.0.tgz)
//
// For every rbnf/<locale>.json except "und" it keeps the SpelloutRules and
// OrdinalRules groups (less %%lenient-parse, collation rules for ICU's
// parser), as published (CLDR's ← → arrows included), and
// writes them to data/<locale>.txt in ICU's rule text syntax: a line
// "%name:" per rule set, then one "descriptor: body;" line a rule. It also
// writes data/index.tsv (locale, English name, script and public rule set
// names, a line each, so that a program can list the locales without
// parsing their rules) and data/VERSION with the package name, version and
// licence.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

func main() {
	tgz := flag.String("tgz", "", "the cldr-rbnf npm tarball (npm pack cldr-rbnf)")
	out := flag.String("out", "data", "output directory")
	flag.Parse()
	if *tgz == "" {
		log.Fatal("rbnfgen: -tgz is required (cd /tmp && npm pack cldr-rbnf)")
	}
	if err := run(*tgz, *out); err != nil {
		log.Fatal(err)
	}
}

func run(tgz, out string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("rbnfgen: %s: %w", tgz, err)
	}
	tr := tar.NewReader(zr)
	var meta struct {
		Name, Version, License, CldrVersion string
	}
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("rbnfgen: %s: %w", tgz, err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		switch {
		case h.Name == "package/package.json":
			if err := json.Unmarshal(b, &meta); err != nil {
				return fmt.Errorf("rbnfgen: package.json: %w", err)
			}
		case path.Dir(h.Name) == "package/rbnf" && strings.HasSuffix(h.Name, ".json"):
			loc := strings.TrimSuffix(path.Base(h.Name), ".json")
			if loc != "und" {
				files[loc] = b
			}
		}
	}
	if meta.Name != "cldr-rbnf" || len(files) == 0 {
		return fmt.Errorf("rbnfgen: %s is not the cldr-rbnf package", tgz)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	var index strings.Builder
	locs := make([]string, 0, len(files))
	for loc := range files {
		locs = append(locs, loc)
	}
	slices.Sort(locs)
	for _, loc := range locs {
		text, sets, marked, err := convert(files[loc])
		if err != nil {
			return fmt.Errorf("rbnfgen: %s: %w", loc, err)
		}
		if text == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(out, loc+".txt"), []byte(text), 0o644); err != nil {
			return err
		}
		tag := language.MustParse(loc)
		script, _ := tag.Script()
		name := display.English.Tags().Name(tag)
		mark := "-"
		if marked {
			mark = "marked"
		}
		fmt.Fprintf(&index, "%s\t%s\t%s\t%s\t%s\n", loc, name, script, strings.Join(sets, " "), mark)
	}
	if err := os.WriteFile(filepath.Join(out, "index.tsv"), []byte(index.String()), 0o644); err != nil {
		return err
	}
	v := fmt.Sprintf("%s %s (CLDR %s), licence %s\n", meta.Name, meta.Version, meta.CldrVersion, meta.License)
	return os.WriteFile(filepath.Join(out, "VERSION"), []byte(v), 0o644)
}

// convert turns {"rbnf":{"rbnf":{"SpelloutRules":{"%name":[["desc","body;"],…]}}}}
// into rule text, keeping the order of the rule sets.
// It also returns the public rule set names, and whether the OrdinalRules
// write a marker beside the digits (any text besides substitutions and
// the minus sign, as in "=#,##0=-й" or "$(ordinal,one{st}…)$").
func convert(b []byte) (string, []string, bool, error) {
	var doc struct {
		Rbnf struct {
			Rbnf map[string]json.RawMessage `json:"rbnf"`
		} `json:"rbnf"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return "", nil, false, err
	}
	var sb strings.Builder
	var sets []string
	marked := false
	for _, group := range []string{"SpelloutRules", "OrdinalRules"} {
		raw, ok := doc.Rbnf.Rbnf[group]
		if !ok {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		if _, err := dec.Token(); err != nil { // {
			return "", nil, false, err
		}
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				return "", nil, false, err
			}
			name, _ := t.(string)
			var rules json.RawMessage
			if err := dec.Decode(&rules); err != nil {
				return "", nil, false, err
			}
			if !strings.HasPrefix(name, "%") || name == "%%lenient-parse" {
				continue // "_rbnfRulesFile"; collation rules for lenient parsing
			}
			var list [][]string
			if err := json.Unmarshal(rules, &list); err != nil {
				return "", nil, false, fmt.Errorf("%s: %w", name, err)
			}
			sb.WriteString(name + ":\n")
			if !strings.HasPrefix(name, "%%") {
				sets = append(sets, name)
			}
			for _, r := range list {
				if len(r) != 2 {
					return "", nil, false, fmt.Errorf("%s: rule %q is not a [descriptor, body] pair", name, r)
				}
				body := r[1]
				if group == "OrdinalRules" && r[0] != "-x" && hasText(body) {
					marked = true
				}
				if strings.HasPrefix(body, " ") {
					body = "'" + body
				}
				sb.WriteString(r[0] + ": " + body + "\n")
			}
		}
	}
	return sb.String(), sets, marked, nil
}

// hasText reports whether a rule body has text outside its substitutions.
func hasText(body string) bool {
	body = strings.TrimSuffix(body, ";")
	for _, tok := range []rune{'=', '→', '←'} {
		for {
			i := strings.IndexRune(body, tok)
			if i < 0 {
				break
			}
			j := strings.IndexRune(body[i+len(string(tok)):], tok)
			if j < 0 {
				break
			}
			body = body[:i] + body[i+len(string(tok))+j+len(string(tok)):]
		}
	}
	return strings.Trim(body, " →−-") != ""
}
