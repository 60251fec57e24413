package doccheck

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoRoot returns the directory holding go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no go.mod above %s", wd)
		}
	}
}

// docFiles returns README.md's blocks and the doc.go files of the public
// packages (none under an internal directory, none under testdata).
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch n := d.Name(); {
			case p != root && (strings.HasPrefix(n, ".") || n == "internal" || n == "testdata" || n == "bin"):
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == "doc.go" {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// pending names the documentation files (relative to the repository root)
// whose snippets are known not to compile because the package they show is
// being written elsewhere; they are built on their own and reported in the
// log, not failed. Remove an entry as soon as its log line says it builds.
var pending = map[string]string{}

// selfTest is a snippet that must not compile: it proves the checker
// reports a wrong call, so a passing run means something.
const selfTest = "res, err := align.Align(ctx, \"no audio\")\nfmt.Println(res, err)\n"

// TestSnippetsCompile builds and vets the README's and package docs' Go
// snippets as programs of a module outside the repository that requires
// this one through a replace directive.
func TestSnippetsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("skip: builds programs in a temporary module (-short)")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("skip: the go command is not on PATH")
	}
	root := repoRoot(t)
	type source struct {
		name, self, pending string
		blocks              []Block
	}
	var sources []source
	readme, err := READMEBlocks(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	sources = append(sources, source{"readme", "", "", readme})
	for _, f := range docFiles(t, root) {
		_, blocks, err := DocBlocks(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, filepath.Dir(f))
		name := "pkg_" + strings.NewReplacer("/", "_", ".", "root").Replace(rel)
		self := "github.com/sottolabs/sotto"
		if rel != "." {
			self += "/" + filepath.ToSlash(rel)
		}
		var why string
		if w, ok := pending[filepath.ToSlash(filepath.Join(rel, "doc.go"))]; ok {
			why = filepath.ToSlash(filepath.Join(rel, "doc.go")) + ": " + w
		}
		sources = append(sources, source{name, self, why, blocks})
	}
	sources = append(sources, source{"selftest", "", "", []Block{{File: "selftest.md", Line: 1, Text: selfTest}}})

	mod := t.TempDir()
	writeFile := func(name, data string) {
		t.Helper()
		p := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\S+)`).FindSubmatch(goMod)
	if goVersion == nil {
		t.Fatal("go.mod has no go line")
	}
	writeFile("go.mod", "module doccheck.example\n\ngo "+string(goVersion[1])+"\n\nrequire github.com/sottolabs/sotto v0.0.0\n\nreplace github.com/sottolabs/sotto => "+root+"\n")
	if sum, err := os.ReadFile(filepath.Join(root, "go.sum")); err == nil {
		writeFile("go.sum", string(sum)) // the repository's sums: no checksum database lookups
	}
	var pkgs, pendingPkgs []string
	blocks := 0
	for _, s := range sources {
		res, err := Wrap(s.name, s.self, s.blocks)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		blocks += len(s.blocks)
		for _, where := range res.Skipped {
			t.Logf("%s: not Go, skipped", where)
		}
		for _, p := range res.Programs {
			writeFile(filepath.Join(p.Name, "main.go"), p.Source)
			switch {
			case s.pending != "":
				pendingPkgs = append(pendingPkgs, s.pending+"\x00./"+p.Name)
			case p.Name != "selftest":
				pkgs = append(pkgs, "./"+p.Name)
			}
		}
	}
	if len(pkgs) < 5 {
		t.Fatalf("only %d programs from %d blocks; the extraction is broken", len(pkgs), blocks)
	}
	run := func(args ...string) (string, error) {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "CGO_ENABLED=0")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	// The self-test program alone must fail, at its own line.
	if out, err := run("build", "-o", os.DevNull, "./selftest"); err == nil || !strings.Contains(out, "selftest.md:1") {
		t.Errorf("a snippet calling align.Align with the wrong arguments built (err %v):\n%s", err, out)
	}
	if out, err := run(append([]string{"build", "-o", t.TempDir()}, pkgs...)...); err != nil {
		t.Fatalf("documentation snippets do not build (positions are in the documentation files):\n%s", out)
	}
	if out, err := run(append([]string{"vet"}, pkgs...)...); err != nil {
		t.Fatalf("go vet of the documentation snippets:\n%s", out)
	}
	for _, p := range pendingPkgs {
		why, pkg, _ := strings.Cut(p, "\x00")
		if out, err := run("build", "-o", os.DevNull, pkg); err != nil {
			t.Logf("pending %s; it still does not build:\n%s", why, out)
		} else {
			t.Logf("pending %s — it builds now: remove it from pending", why)
		}
	}
	t.Logf("%d blocks from README.md and %d package docs built and vetted as %d programs", blocks, len(sources)-2, len(pkgs))
}
