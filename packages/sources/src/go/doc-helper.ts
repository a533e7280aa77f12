import { rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tempDir } from '../temp-dir.js';
import { runGo, runProgram } from './go-command.js';

/** An `Example…` function of a package's test files, as go/doc finds it. */
export interface GoExample {
  /** The suffix after the name it shows (`Example_short`, `ExampleCommand_AddCommand_nested` → `short`, `nested`). */
  readonly name: string;
  readonly doc?: string;
  readonly code: string;
  readonly output?: string;
}

/** A group of constants or variables declared together. */
export interface GoValue {
  readonly names: readonly string[];
  readonly decl: string;
  readonly doc?: string;
}

/** A function, a method (`recv` its type), or a constructor grouped under its type. */
export interface GoFunc {
  readonly name: string;
  readonly recv?: string;
  readonly decl: string;
  readonly doc?: string;
  readonly deprecated?: boolean;
  readonly examples?: readonly GoExample[];
  /** The package's own types its parameters and results name (not its receiver's), as go/ast reads the signature. */
  readonly uses?: readonly string[];
}

export interface GoType {
  readonly name: string;
  readonly decl: string;
  /** A large struct's documented fields, its declaration then printed without their comments. */
  readonly fields?: readonly { readonly decl: string; readonly doc: string }[];
  readonly doc?: string;
  readonly deprecated?: boolean;
  readonly consts?: readonly GoValue[];
  readonly vars?: readonly GoValue[];
  /** Functions returning the type (constructors), as go/doc groups them. */
  readonly funcs?: readonly GoFunc[];
  readonly methods?: readonly GoFunc[];
  readonly examples?: readonly GoExample[];
}

/** One package's exported API; doc texts are markdown as go/doc/comment renders doc comments. */
export interface GoPackage {
  readonly importPath: string;
  readonly name: string;
  readonly doc?: string;
  readonly consts?: readonly GoValue[];
  readonly vars?: readonly GoValue[];
  readonly funcs?: readonly GoFunc[];
  readonly types?: readonly GoType[];
  readonly examples?: readonly GoExample[];
}

/** Bounds on what the helper reads of one module. */
export interface GoApiLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/** A code block of a module's README or docs, for the reader to list what it calls. */
export interface GoExampleInput {
  readonly code: string;
  /** Labelled `go`: a block the Go parser reads only in part is still read for the part it could. */
  readonly labelled: boolean;
}

/**
 * A call (`c.ShouldBindJSON(…)`) or composite literal (`gin.H{…}`) of a code block, as its dotted path, with what
 * the block says of the path's first name: the type it was declared with (`c *gin.Context` → `Context`) or the
 * function whose result it holds (`r := gin.Default()` → `Default`), and the comments on the statements around
 * it (indexes into {@link GoExampleCalls.comments}, nearest first).
 */
export interface GoExampleCall {
  readonly path: readonly string[];
  readonly type?: string;
  readonly from?: string;
  readonly within?: readonly number[];
}

/** What one code block calls, and its comments' texts. */
export interface GoExampleCalls {
  readonly comments: readonly string[];
  readonly calls: readonly GoExampleCall[];
}

export type GoApiResult =
  | {
      readonly ok: true;
      readonly packages: readonly GoPackage[];
      readonly warnings: readonly string[];
      /** For each of the code blocks given, in their order, what it calls. */
      readonly examples: readonly GoExampleCalls[];
    }
  | { readonly ok: false; readonly error: string };

/**
 * The exported API of every importable package of a module folder (`internal/`, `testdata/`, `vendor/`, commands
 * and nested modules left out), read by {@link DOC_HELPER_SOURCE}, which {@link goApiReader} builds once a process,
 * and what each of `examples` (code blocks of the module's docs) calls, read by go/parser in the same run.
 * It runs within `limits.timeoutMs`; the module's files are parsed, never built or run; the reader is ours and
 * imports only Go's standard library.
 */
export async function readGoApi(
  moduleDir: string,
  modulePath: string,
  limits: GoApiLimits,
  examples: readonly GoExampleInput[] = [],
): Promise<GoApiResult> {
  const reader = await goApiReader();
  if (!reader.ok) return reader;
  const input = examples.length > 0 ? await tempDir('goexamples') : undefined;
  try {
    const args = [`-max-files=${limits.maxFiles}`, `-max-bytes=${limits.maxBytes}`];
    if (input) {
      const file = path.join(input.dir, 'examples.json');
      await writeFile(file, JSON.stringify(examples));
      args.push(`-examples=${file}`);
    }
    const run = await runProgram(reader.binary, [...args, '--', moduleDir, modulePath], {
      cwd: path.dirname(reader.binary),
      timeoutMs: limits.timeoutMs,
    });
    if (!run.ok) return { ok: false, error: `the Go API reader failed: ${run.error}` };
    const parsed = JSON.parse(run.stdout) as { packages: GoPackage[]; warnings: string[]; examples: GoExampleCalls[] };
    return { ok: true, packages: parsed.packages, warnings: parsed.warnings, examples: parsed.examples };
  } finally {
    await input?.dispose();
  }
}

let reader: Promise<{ ok: true; binary: string } | { ok: false; error: string }> | undefined;

/**
 * The reader's binary, built with the user's `go` once a process into a temporary folder removed when the process
 * exits (one a module cost 0.1–1 s each on a busy machine: 41 modules with `sync --all`). `go build` compiles it
 * once into go's build cache: ~14 s of CPU with an empty cache, a tenth of a second after; it has 10 minutes, so a
 * cold cache on a busy machine does not cost the first module its pages. A build that fails fails every module
 * of the process alike, with its reason, rather than being tried again for each.
 */
function goApiReader(): Promise<{ ok: true; binary: string } | { ok: false; error: string }> {
  reader ??= (async () => {
    const helper = await tempDir('gohelper');
    process.once('exit', () => rmSync(helper.dir, { recursive: true, force: true }));
    await writeFile(path.join(helper.dir, 'go.mod'), 'module docs-go-api\n\ngo 1.19\n');
    await writeFile(path.join(helper.dir, 'main.go'), DOC_HELPER_SOURCE);
    const binary = path.join(helper.dir, process.platform === 'win32' ? 'docs-go-api.exe' : 'docs-go-api');
    const built = await runGo(['build', '-o', binary, '.'], {
      cwd: helper.dir,
      // The reader is its own module with no requirements: nothing of the user's settings may send go elsewhere.
      env: { GOFLAGS: '-mod=mod', GOWORK: 'off', GO111MODULE: 'on', GOPROXY: 'off', CGO_ENABLED: '0' },
      timeoutMs: 600_000,
    });
    return built.ok
      ? { ok: true as const, binary }
      : { ok: false as const, error: `the Go API reader could not be built: ${built.error}` };
  })();
  return reader;
}

/**
 * The helper's Go source (package main, standard library only), written to a temporary module, built with
 * `go build` and run. Kept here as text so that it ships inside the bundled CLI with no file of its own to find.
 */
export const DOC_HELPER_SOURCE: string = String.raw`
// Command docs-go-api reads the Go packages of one module folder with go/build (which files build on
// linux/amd64), go/parser and go/doc, and prints their exported API as JSON: the declarations as gofmt prints
// them, doc comments rendered to markdown by go/doc/comment, and the Example functions of the test files. It
// parses the module's files and never builds or runs them.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/doc/comment"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

type example struct {
	Name   string "json:\"name\""
	Doc    string "json:\"doc,omitempty\""
	Code   string "json:\"code\""
	Output string "json:\"output,omitempty\""
}

type value struct {
	Names []string "json:\"names\""
	Decl  string   "json:\"decl\""
	Doc   string   "json:\"doc,omitempty\""
}

type function struct {
	Name       string    "json:\"name\""
	Recv       string    "json:\"recv,omitempty\""
	Decl       string    "json:\"decl\""
	Doc        string    "json:\"doc,omitempty\""
	Deprecated bool      "json:\"deprecated,omitempty\""
	Examples   []example "json:\"examples,omitempty\""
	Uses       []string  "json:\"uses,omitempty\""
}

type field struct {
	Decl string "json:\"decl\""
	Doc  string "json:\"doc\""
}

type typeDoc struct {
	Name       string     "json:\"name\""
	Decl       string     "json:\"decl\""
	Fields     []field    "json:\"fields,omitempty\""
	Doc        string     "json:\"doc,omitempty\""
	Deprecated bool       "json:\"deprecated,omitempty\""
	Consts     []value    "json:\"consts,omitempty\""
	Vars       []value    "json:\"vars,omitempty\""
	Funcs      []function "json:\"funcs,omitempty\""
	Methods    []function "json:\"methods,omitempty\""
	Examples   []example  "json:\"examples,omitempty\""
}

type packageDoc struct {
	ImportPath string     "json:\"importPath\""
	Name       string     "json:\"name\""
	Doc        string     "json:\"doc,omitempty\""
	Consts     []value    "json:\"consts,omitempty\""
	Vars       []value    "json:\"vars,omitempty\""
	Funcs      []function "json:\"funcs,omitempty\""
	Types      []typeDoc  "json:\"types,omitempty\""
	Examples   []example  "json:\"examples,omitempty\""
}

type output struct {
	Packages []packageDoc    "json:\"packages\""
	Warnings []string        "json:\"warnings\""
	Examples []exampleCalls "json:\"examples\""
}

// exampleInput is a code block of the module's README or docs, given by the caller (-examples).
type exampleInput struct {
	Code     string "json:\"code\""
	Labelled bool   "json:\"labelled\""
}

type budget struct {
	files, bytes       int
	maxFiles, maxBytes int
	exceeded           bool
}

// take counts a file against the module's bounds; false once they are reached.
func (b *budget) take(size int) bool {
	if b.files+1 > b.maxFiles || b.bytes+size > b.maxBytes {
		b.exceeded = true
		return false
	}
	b.files++
	b.bytes += size
	return true
}

func main() {
	maxFiles := flag.Int("max-files", 2000, "Go files read at most")
	maxBytes := flag.Int("max-bytes", 32<<20, "bytes of Go files read at most")
	examplesFile := flag.String("examples", "", "a JSON file of the docs' code blocks, whose calls are read")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: docs-go-api [-max-files N] [-max-bytes N] <module folder> <module path>")
		os.Exit(2)
	}
	root, modulePath := flag.Arg(0), flag.Arg(1)
	out := output{Packages: []packageDoc{}, Warnings: []string{}, Examples: []exampleCalls{}}
	if *examplesFile != "" {
		var inputs []exampleInput
		data, err := os.ReadFile(*examplesFile)
		if err == nil {
			err = json.Unmarshal(data, &inputs)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for _, in := range inputs {
			out.Examples = append(out.Examples, readExample(in.Code, in.Labelled))
		}
	}
	b := &budget{maxFiles: *maxFiles, maxBytes: *maxBytes}
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled, ctx.GOPATH = "linux", "amd64", true, ""
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root {
			// Not importable (internal), not Go's (testdata, vendor, hidden), or another module (its own go.mod).
			if name == "internal" || name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Lstat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		dirs = append(dirs, p)
		return nil
	})
	if err != nil {
		out.Warnings = append(out.Warnings, err.Error())
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		importPath := modulePath
		if rel != "." {
			importPath = path.Join(modulePath, filepath.ToSlash(rel))
		}
		pkg, err := readPackage(&ctx, dir, importPath, b)
		if err != nil {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%s: %v", importPath, err))
		}
		if pkg != nil {
			out.Packages = append(out.Packages, *pkg)
		}
		if b.exceeded {
			out.Warnings = append(out.Warnings, fmt.Sprintf("stopped at %d Go files, %d bytes: the module is larger than the bounds", b.files, b.bytes))
			break
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func readPackage(ctx *build.Context, dir, importPath string, b *budget) (*packageDoc, error) {
	bp, err := ctx.ImportDir(dir, build.ImportComment)
	if err != nil {
		if _, none := err.(*build.NoGoError); none {
			return nil, nil
		}
		if bp == nil || len(bp.GoFiles)+len(bp.CgoFiles) == 0 {
			return nil, err
		}
	}
	if bp.Name == "main" {
		return nil, nil
	}
	fset := token.NewFileSet()
	var files []*ast.File
	names := append(append(append(append([]string{}, bp.GoFiles...), bp.CgoFiles...), bp.TestGoFiles...), bp.XTestGoFiles...)
	for _, name := range names {
		full := filepath.Join(dir, name)
		info, err := os.Lstat(full)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if !b.take(int(info.Size())) {
			break
		}
		f, err := parser.ParseFile(fset, full, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, nil
	}
	p, err := doc.NewFromFiles(fset, files, importPath)
	if err != nil {
		return nil, err
	}
	r := renderer{fset: fset, pkg: p, files: files}
	out := &packageDoc{ImportPath: importPath, Name: p.Name, Doc: r.markdown(p.Doc, 3), Examples: r.examples(p.Examples)}
	out.Consts = r.values(p.Consts)
	out.Vars = r.values(p.Vars)
	out.Funcs = r.funcs(p.Funcs)
	for _, t := range p.Types {
		text, deprecated := r.docText(t.Doc)
		decl, fields := r.typeDecl(t.Decl)
		out.Types = append(out.Types, typeDoc{
			Name: t.Name, Decl: decl, Fields: fields, Doc: r.markdown(text, 4), Deprecated: deprecated,
			Consts: r.values(t.Consts), Vars: r.values(t.Vars), Funcs: r.funcs(t.Funcs), Methods: r.funcs(t.Methods),
			Examples: r.examples(t.Examples),
		})
	}
	return out, nil
}

type renderer struct {
	fset  *token.FileSet
	pkg   *doc.Package
	files []*ast.File
}

// docText moves a "Deprecated:" paragraph first, as readers must see it before anything else.
func (r renderer) docText(text string) (string, bool) {
	paragraphs := strings.Split(text, "\n\n")
	for i, p := range paragraphs {
		if strings.HasPrefix(p, "Deprecated: ") || strings.HasPrefix(p, "Deprecated:\n") {
			if i > 0 {
				rest := append(append([]string{p}, paragraphs[:i]...), paragraphs[i+1:]...)
				return strings.Join(rest, "\n\n"), true
			}
			return text, true
		}
	}
	return text, false
}

// markdown renders a doc comment as go/doc/comment renders it, with links to other declarations kept as their text,
// code blocks fenced as Go (the printer indents them) and headings without their anchors ("{#hdr-Name}").
func (r renderer) markdown(text string, level int) string {
	if text == "" {
		return ""
	}
	p := r.pkg.Printer()
	p.HeadingLevel = level
	p.DocLinkURL = func(*comment.DocLink) string { return "" }
	parsed := r.pkg.Parser().Parse(text)
	var parts []string
	for _, block := range parsed.Content {
		if code, ok := block.(*comment.Code); ok {
			fence := strings.Repeat("\x60", 3)
			for strings.Contains(code.Text, fence) {
				fence += "\x60"
			}
			parts = append(parts, fence+"\n"+strings.TrimRight(code.Text, "\n")+"\n"+fence)
			continue
		}
		one := &comment.Doc{Content: []comment.Block{block}, Links: parsed.Links}
		out := strings.TrimSpace(string(p.Markdown(one)))
		if _, heading := block.(*comment.Heading); heading {
			if i := strings.LastIndex(out, " {#"); i > 0 && strings.HasSuffix(out, "}") {
				out = out[:i]
			}
		}
		parts = append(parts, out)
	}
	return strings.Join(parts, "\n\n")
}

func (r renderer) values(list []*doc.Value) []value {
	var out []value
	for _, v := range list {
		text, _ := r.docText(v.Doc)
		out = append(out, value{Names: v.Names, Decl: r.node(v.Decl), Doc: r.markdown(text, 4)})
	}
	return out
}

func (r renderer) funcs(list []*doc.Func) []function {
	var out []function
	for _, f := range list {
		text, deprecated := r.docText(f.Doc)
		recv := ""
		if f.Recv != "" {
			recv = strings.TrimPrefix(f.Recv, "*")
			if i := strings.IndexByte(recv, '['); i >= 0 {
				recv = recv[:i]
			}
		}
		out = append(out, function{Name: f.Name, Recv: recv, Decl: r.node(f.Decl), Doc: r.markdown(text, 4), Deprecated: deprecated, Examples: r.examples(f.Examples), Uses: r.uses(f.Decl.Type, recv)})
	}
	return out
}

// uses lists the package's own exported types a signature names in its parameters and results, once each, in order,
// leaving out the receiver's type (its page is the one the method is on) and names qualified by another package.
func (r renderer) uses(signature *ast.FuncType, recv string) []string {
	own := map[string]bool{}
	for _, t := range r.pkg.Types {
		own[t.Name] = true
	}
	seen := map[string]bool{recv: true}
	var out []string
	visit := func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			return false
		case *ast.Ident:
			if own[x.Name] && !seen[x.Name] {
				seen[x.Name] = true
				out = append(out, x.Name)
			}
		}
		return true
	}
	for _, list := range []*ast.FieldList{signature.Params, signature.Results} {
		if list == nil {
			continue
		}
		for _, f := range list.List {
			ast.Inspect(f.Type, visit)
		}
	}
	return out
}

func (r renderer) examples(list []*doc.Example) []example {
	var out []example
	for _, e := range list {
		code := ""
		if block, ok := e.Code.(*ast.BlockStmt); ok {
			code = r.print(&printer.CommentedNode{Node: block, Comments: e.Comments})
			code = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(code, "{"), "}"))
			code = dedent(code)
		} else if e.Code != nil {
			code = r.print(&printer.CommentedNode{Node: e.Code, Comments: e.Comments})
		}
		out = append(out, example{Name: e.Suffix, Doc: r.markdown(e.Doc, 4), Code: code, Output: strings.TrimSpace(e.Output)})
	}
	return out
}

// node prints a declaration as gofmt does, without its doc comment (that is rendered on its own), with the comments
// inside it (a struct's fields).
func (r renderer) node(decl ast.Decl) string {
	switch d := decl.(type) {
	case *ast.FuncDecl:
		copy := *d
		copy.Doc, copy.Body = nil, nil
		return r.print(&copy)
	case *ast.GenDecl:
		copy := *d
		copy.Doc = nil
		return r.print(&printer.CommentedNode{Node: &copy, Comments: r.commentsOf(d)})
	}
	return ""
}

// typeDecl prints a type's declaration. A struct with many documented fields is printed without their comments,
// which come back as a list: a list is split between its items where a section outgrows the index's budget, a
// declaration in one code block is not (cobra's Command was one block of ~1,300 tokens).
func (r renderer) typeDecl(decl *ast.GenDecl) (string, []field) {
	full := r.node(decl)
	if len(decl.Specs) != 1 || strings.Count(full, "\n") < 40 {
		return full, nil
	}
	spec, ok := decl.Specs[0].(*ast.TypeSpec)
	if !ok {
		return full, nil
	}
	st, ok := spec.Type.(*ast.StructType)
	if !ok || st.Fields == nil {
		return full, nil
	}
	var fields []field
	bareFields := make([]*ast.Field, 0, len(st.Fields.List))
	for _, f := range st.Fields.List {
		copy := *f
		copy.Doc, copy.Comment = nil, nil
		bareFields = append(bareFields, &copy)
		text := ""
		if f.Doc != nil {
			text = f.Doc.Text()
		} else if f.Comment != nil {
			text = f.Comment.Text()
		}
		if text == "" {
			continue
		}
		var names []string
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
		head := r.print(f.Type)
		if len(names) > 0 {
			head = strings.Join(names, ", ") + " " + head
		}
		fields = append(fields, field{Decl: head, Doc: r.markdown(text, 5)})
	}
	if len(fields) == 0 {
		return full, nil
	}
	bareStruct := *st
	bareList := *st.Fields
	bareList.List = bareFields
	bareStruct.Fields = &bareList
	bareSpec := *spec
	bareSpec.Doc, bareSpec.Comment, bareSpec.Type = nil, nil, &bareStruct
	bare := *decl
	bare.Doc, bare.Specs = nil, []ast.Spec{&bareSpec}
	// Without their comments the fields keep the blank lines between them: one field a line, as go doc -short.
	return strings.ReplaceAll(r.print(&bare), "\n\n", "\n"), fields
}

func (r renderer) commentsOf(node ast.Node) []*ast.CommentGroup {
	for _, f := range r.files {
		if f.Pos() <= node.Pos() && node.End() <= f.End() {
			var inside []*ast.CommentGroup
			for _, c := range f.Comments {
				if node.Pos() < c.Pos() && c.End() <= node.End() {
					inside = append(inside, c)
				}
			}
			return inside
		}
	}
	return nil
}

func (r renderer) print(node any) string {
	var buf bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&buf, r.fset, node); err != nil {
		return ""
	}
	return buf.String()
}

func dedent(code string) string {
	lines := strings.Split(code, "\n")
	for i, line := range lines {
		lines[i] = strings.TrimPrefix(line, "\t")
	}
	return strings.Join(lines, "\n")
}

type exampleCall struct {
	Path   []string "json:\"path\""
	Type   string   "json:\"type,omitempty\""
	From   string   "json:\"from,omitempty\""
	Within []int    "json:\"within,omitempty\""
}

type exampleCalls struct {
	Comments []string      "json:\"comments\""
	Calls    []exampleCall "json:\"calls\""
}

// parseExample parses a documentation code block, which is as often a fragment as a file: a whole file, then
// declarations under a package clause, then statements inside a function. A block none of these parse is read
// from the statements' partial tree only when the block says it is Go (labelled), as go/parser keeps what it could.
func parseExample(code string, labelled bool) (*token.FileSet, *ast.File) {
	var partial *ast.File
	var partialSet *token.FileSet
	for _, wrap := range [][2]string{{"", ""}, {"package p\n", ""}, {"package p\nfunc _() {\n", "\n}"}} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "example.go", wrap[0]+code+wrap[1], parser.ParseComments|parser.SkipObjectResolution)
		if err == nil {
			return fset, f
		}
		if f != nil && wrap[0] != "" {
			partial, partialSet = f, fset
		}
	}
	if labelled && partial != nil {
		return partialSet, partial
	}
	return nil, nil
}

// readExample lists what a code block calls ("c.ShouldBindJSON(&json)" → path c, ShouldBindJSON) or instantiates
// ("gin.H{…}"), each with what the block says of its receiver (a parameter "c *gin.Context" → type Context;
// "r := gin.Default()" → from Default) and the comments on the statements around it, nearest first: the block's
// own words for what that call does.
func readExample(code string, labelled bool) exampleCalls {
	out := exampleCalls{Comments: []string{}, Calls: []exampleCall{}}
	fset, f := parseExample(code, labelled)
	if f == nil {
		return out
	}
	comments := ast.NewCommentMap(fset, f, f.Comments)
	types := map[string]string{}
	from := map[string]string{}
	commentIndex := map[ast.Node][]int{}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if groups, ok := comments[n]; ok {
			for _, g := range groups {
				if text := strings.TrimSpace(g.Text()); text != "" {
					commentIndex[n] = append(commentIndex[n], len(out.Comments))
					out.Comments = append(out.Comments, text)
				}
			}
		}
		switch x := n.(type) {
		case *ast.Field:
			if name := typeName(x.Type); name != "" {
				for _, id := range x.Names {
					types[id.Name] = name
				}
			}
		case *ast.ValueSpec:
			if name := typeName(x.Type); name != "" {
				for _, id := range x.Names {
					types[id.Name] = name
				}
			} else if len(x.Names) > 0 && len(x.Values) > 0 {
				bind(x.Names[0].Name, x.Values[0], types, from)
			}
		case *ast.AssignStmt:
			if id, ok := x.Lhs[0].(*ast.Ident); ok && len(x.Rhs) > 0 {
				bind(id.Name, x.Rhs[0], types, from)
			}
		case *ast.CallExpr:
			if p := selectorPath(x.Fun); len(p) > 0 {
				out.Calls = append(out.Calls, exampleCall{Path: p, Within: within(stack, commentIndex)})
			}
		case *ast.CompositeLit:
			if p := selectorPath(x.Type); len(p) > 0 {
				out.Calls = append(out.Calls, exampleCall{Path: p, Within: within(stack, commentIndex)})
			}
		}
		return true
	})
	// Receivers are known once the whole block is read (a parameter is declared before, a variable maybe after in
	// the text, as in a package-level var block).
	for i, call := range out.Calls {
		if len(call.Path) > 1 {
			out.Calls[i].Type, out.Calls[i].From = types[call.Path[0]], from[call.Path[0]]
		}
	}
	return out
}

// bind records what a variable was made from: a composite literal's type ("&gin.H{}" → H) or the function whose
// result it holds ("gin.Default()" → Default).
func bind(name string, value ast.Expr, types, from map[string]string) {
	if u, ok := value.(*ast.UnaryExpr); ok {
		value = u.X
	}
	switch v := value.(type) {
	case *ast.CompositeLit:
		if t := typeName(v.Type); t != "" {
			types[name] = t
		}
	case *ast.CallExpr:
		if p := selectorPath(v.Fun); len(p) > 0 {
			from[name] = p[len(p)-1]
		}
	}
}

// within lists the comments on the nodes enclosing the innermost one, nearest first.
func within(stack []ast.Node, index map[ast.Node][]int) []int {
	var list []int
	for i := len(stack) - 1; i >= 0; i-- {
		list = append(list, index[stack[i]]...)
	}
	return list
}

// selectorPath is a called or instantiated name as its dotted path ("c.Request.Header.Get" → c, Request, Header,
// Get), or nil for anything else (a call of a call's result, a function literal).
func selectorPath(e ast.Expr) []string {
	switch x := e.(type) {
	case *ast.Ident:
		return []string{x.Name}
	case *ast.SelectorExpr:
		if p := selectorPath(x.X); len(p) > 0 {
			return append(p, x.Sel.Name)
		}
	case *ast.IndexExpr:
		return selectorPath(x.X)
	case *ast.IndexListExpr:
		return selectorPath(x.X)
	case *ast.ParenExpr:
		return selectorPath(x.X)
	}
	return nil
}

// typeName is a declared type's own name ("*gin.Context" → Context), or "" for a type without one.
func typeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return typeName(x.X)
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.IndexExpr:
		return typeName(x.X)
	case *ast.IndexListExpr:
		return typeName(x.X)
	}
	return ""
}
`;
