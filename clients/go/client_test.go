package layoutd

// The Go client against the real daemon ($LAYOUTD_BINARY, else the Swift build's debug binary),
// each test on a daemon of its own, and the cross-language golden vectors.

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"layoutd/clients/go/layoutdv1"
)

const caption = "The quick brown fox jumps over the lazy dog, again and again and again."

// root is the repository's root: this package is clients/go (the physical path: GOPATH
// reaches it through a link).
var root = func() string {
	here, _ := syscall.Getwd() // the kernel's path, not $PWD's
	return filepath.Join(here, "..", "..")
}()

type daemon struct {
	t       *testing.T
	path    string
	process *exec.Cmd
}

func startDaemon(t *testing.T) *daemon {
	t.Helper()
	d := &daemon{t: t, path: filepath.Join(t.TempDir(), "layoutd.sock")}
	d.start()
	t.Cleanup(func() { d.stop(syscall.SIGTERM) })
	return d
}

func (d *daemon) start() {
	binary := os.Getenv("LAYOUTD_BINARY")
	if binary == "" {
		binary = filepath.Join(root, ".build", "debug", "layoutd")
	}
	d.process = exec.Command(binary, "--socket", d.path, "--config", "/dev/null", "--log-level", "error")
	d.process.Stderr = os.Stderr
	if err := d.process.Start(); err != nil {
		d.t.Fatalf("starting layoutd: %v", err)
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if probe, err := net.Dial("unix", d.path); err == nil {
			probe.Close()
			return
		}
	}
	d.t.Fatalf("layoutd did not start serving at %s", d.path)
}

func (d *daemon) stop(signal syscall.Signal) {
	if d.process == nil || d.process.ProcessState != nil {
		return
	}
	_ = d.process.Process.Signal(signal)
	_ = d.process.Wait()
}

func (d *daemon) restart(signal syscall.Signal) {
	d.stop(signal)
	d.start()
}

func dial(t *testing.T, d *daemon, options Options) *Client {
	t.Helper()
	options.SocketPath = d.path
	client, err := Dial(options)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { client.Close() })
	return client
}

func TestGreetsLaysOutAndRefusesByName(t *testing.T) {
	d := startDaemon(t)
	client := dial(t, d, Options{})
	if client.Daemon().ProtocolVersion != ProtocolVersion || len(client.Daemon().Features) == 0 {
		t.Fatalf("hello: %v", client.Daemon())
	}
	ctx := context.Background()
	reply, err := client.LayoutText(ctx, "Hello from Go, 你好", 240)
	if err != nil || len(reply.Lines) != 1 || len(reply.Runs) == 0 {
		t.Fatalf("layout: %v %v", reply, err)
	}
	_, err = client.LayoutText(ctx, "x", -1)
	var refused *Error
	if !errors.As(err, &refused) || refused.Code != InvalidArgument || refused.Field != "layout.width" ||
		refused.Number != int32(layoutdv1.Error_INVALID_ARGUMENT) || !strings.HasPrefix(err.Error(), "INVALID_ARGUMENT layout.width: ") {
		t.Fatalf("a negative width: %v", err)
	}
	_, err = client.Layout(ctx, &layoutdv1.LayoutRequest{Text: "x", Width: 100, DefaultStyle: &layoutdv1.Style{Family: "No Such Family"}})
	if !errors.As(err, &refused) || refused.Code != NotFound {
		t.Fatalf("an unknown family: %v", err)
	}
	justified, err := client.Justify(ctx, &layoutdv1.JustifyRequest{Text: "Type\nMode", Width: 300})
	if err != nil || len(justified.Lines) != 2 {
		t.Fatalf("justify: %v", err)
	}
	fonts, err := client.Fonts(ctx)
	if err != nil || len(fonts.Faces) == 0 {
		t.Fatalf("fonts: %v", err)
	}
	measured, err := client.Layout(ctx, &layoutdv1.LayoutRequest{Text: "Widths before a box", Width: 60, IntrinsicMetrics: true})
	if err != nil || measured.MinContentWidth <= 0 || measured.MaxContentWidth <= measured.MinContentWidth {
		t.Fatalf("intrinsic metrics: %v %v", measured, err)
	}
	for _, run := range measured.Runs {
		face := fonts.Faces[run.FontId]
		if want := float32(face.Ascender) * run.Size / float32(face.UnitsPerEm); run.Ascent < want-1e-3 || run.Ascent > want+1e-3 {
			t.Fatalf("run ascent %v, its face's %v", run.Ascent, want)
		}
	}
	// Emphasis marks: a sesame over each character but the comma, half the text's size.
	style := &layoutdv1.Style{Family: "Noto Sans CJK JP", Size: 24, Emphasis: &layoutdv1.EmphasisMarks{Shape: layoutdv1.EmphasisShape_EMPHASIS_SHAPE_SESAME}}
	marked, err := client.Layout(ctx, &layoutdv1.LayoutRequest{Text: "強調、文章", Width: 300, DefaultStyle: style})
	if err != nil || len(marked.EmphasisMarks) != 1 || len(marked.EmphasisMarks[0].Clusters) != 4 || marked.EmphasisMarks[0].Clusters[2] != 3 ||
		marked.EmphasisMarks[0].Size != 12 {
		t.Fatalf("emphasis marks: %v %v", marked.GetEmphasisMarks(), err)
	}
	// Ruby: かんじ over 漢字 and jukugo readings over 東京, each reading's run beside the text's.
	annotated, err := client.Layout(ctx, &layoutdv1.LayoutRequest{Text: "漢字の東京", Width: 300,
		DefaultStyle: &layoutdv1.Style{Family: "Noto Sans CJK JP", Size: 24},
		RubyAnnotations: []*layoutdv1.Ruby{{Range: &layoutdv1.Range{Start: 0, Length: 2}, Text: "かんじ"},
			{Range: &layoutdv1.Range{Start: 3, Length: 2}, Readings: []string{"とう", "きょう"}}}})
	if err != nil || len(annotated.RubyRuns) != 3 || annotated.RubyRuns[2].Range.Start != 4 || len(annotated.RubyRuns[2].Clusters) != 3 ||
		annotated.RubyRuns[0].Size != 12 {
		t.Fatalf("ruby: %v %v", annotated.GetRubyRuns(), err)
	}
	// Glyph flags: one per glyph when asked, HarfBuzz's unsafe-to-concatenate among them.
	flagged, err := client.Layout(ctx, &layoutdv1.LayoutRequest{Text: "office", Width: 300, GlyphFlags: true,
		DefaultStyle: &layoutdv1.Style{Family: "Noto Sans"}})
	if err != nil || len(flagged.Runs) == 0 || len(flagged.Runs[0].GlyphFlags) != len(flagged.Runs[0].GlyphIds) {
		t.Fatalf("glyph flags: %v %v", flagged.GetRuns(), err)
	}
	// An AAT font's tracking at an optical size (HarfBuzz's ptem): 986 units a glyph at 24 points.
	trak, err := os.ReadFile("../../Tests/LayoutEngineTests/HarfBuzzInHouse/fonts/TRAK.ttf")
	if err != nil {
		t.Fatal(err)
	}
	tracked, err := client.Layout(ctx, &layoutdv1.LayoutRequest{Text: "ABC", Width: 1000,
		Fonts:        []*layoutdv1.ClientFont{{Family: "Trak", Data: trak}},
		DefaultStyle: &layoutdv1.Style{Family: "Trak", Size: 48, OpticalSize: 24}})
	if err != nil || len(tracked.Runs) != 1 || math.Round(float64(tracked.Runs[0].Advances[0])*1000/48) != 986 {
		t.Fatalf("optical size: %v %v", tracked.GetRuns(), err)
	}
	// CSS text-orientation: upright sets the Latin letters of a vertical column upright too.
	column, err := client.Layout(ctx, &layoutdv1.LayoutRequest{Text: "縦ABC書", Width: 300, Height: 1000,
		WritingMode: layoutdv1.WritingMode_WRITING_MODE_VERTICAL_RL, TextOrientation: layoutdv1.TextOrientation_TEXT_ORIENTATION_UPRIGHT,
		DefaultStyle: &layoutdv1.Style{Family: "Noto Sans CJK JP", Size: 20}})
	if err != nil || len(column.Runs) != 1 || column.Runs[0].Orientation != layoutdv1.GlyphOrientation_GLYPH_ORIENTATION_UPRIGHT {
		t.Fatalf("text orientation: %v %v", column.GetRuns(), err)
	}
	// Type Mode in an editing session: a keystroke refits only its line, as justify fits the text.
	story, err := client.OpenTypeModeDocument(ctx, &layoutdv1.JustifyRequest{Text: "so\nHAPPY", Width: 300, Preset: "strong"})
	if err != nil || len(story.Changes[0].FittedLines) != 2 || len(story.GetStory().GetBackgrounds()) != 1 || story.GetStory().GetPreset() != "strong" {
		t.Fatalf("a Type Mode document: %v %v", story, err)
	}
	typed, err := client.EditDocument(ctx, &layoutdv1.EditDocumentRequest{Document: story.Document, Edits: []*layoutdv1.DocumentEdit{{
		Edit: &layoutdv1.DocumentEdit_Replace{Replace: &layoutdv1.TextReplacement{Range: &layoutdv1.Range{Start: 8}, Text: "!!"}}}}})
	fitted, _ := client.Justify(ctx, &layoutdv1.JustifyRequest{Text: "so\nHAPPY!!", Width: 300, Preset: "strong"})
	if err != nil || typed.Changes[0].First != 1 || typed.Changes[0].FittedLines[0].LineSizes[0] != fitted.GetLineSizes()[1] {
		t.Fatalf("a keystroke in a Type Mode document: %v %v", typed, err)
	}
	// One text, several layouts: a narrow view wraps where the document does not.
	viewed, err := client.OpenDocumentWithViews(ctx, &layoutdv1.LayoutRequest{Text: "Some text of a few words.", Width: 300},
		&layoutdv1.LayoutRequest{Width: 60})
	if err != nil || len(viewed.Views) != 1 || viewed.Views[0].LineCount <= viewed.LineCount {
		t.Fatalf("a document with a view: %v %v", viewed, err)
	}
	if _, err := Dial(Options{SocketPath: filepath.Join(t.TempDir(), "none.sock")}); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("no daemon: %v", err)
	}
}

// A request past the daemon's frame limit: it answers with one error naming the limit and
// closes; the client returns that answer, not the broken pipe its write met.
func TestAFramePastTheLimitIsAnsweredByName(t *testing.T) {
	d := startDaemon(t)
	client := dial(t, d, Options{})
	limit := client.Daemon().MaxFrameBytes
	_, err := client.LayoutText(context.Background(), strings.Repeat("a", int(limit)+1000), 100)
	var refused *Error
	if !errors.As(err, &refused) || refused.Code != ResourceExhausted || refused.Field != "frame" ||
		!strings.Contains(refused.Message, fmt.Sprint(limit)) {
		t.Fatalf("a frame past the limit: %v", err)
	}
	if reply, err := client.LayoutText(context.Background(), "after", 100); err != nil || len(reply.Lines) != 1 {
		t.Fatalf("the next call: %v %v", reply, err)
	}
}

func TestPipelinedBatchesKeepEveryResult(t *testing.T) {
	d := startDaemon(t)
	client := dial(t, d, Options{})
	ctx := context.Background()
	requests := make([]*layoutdv1.LayoutRequest, 150)
	for i := range requests {
		requests[i] = &layoutdv1.LayoutRequest{Text: caption, Width: float32(60 + 3*i)}
	}
	requests[70].Width = -1
	results := client.LayoutMany(ctx, requests, 16)
	for i, result := range results {
		if i == 70 {
			var refused *Error
			if !errors.As(result.Err, &refused) || refused.Field != "layout.width" {
				t.Fatalf("place 70: %v", result.Err)
			}
			continue
		}
		single, err := client.Layout(ctx, requests[i])
		if result.Err != nil || err != nil || !proto.Equal(single, result.Reply) {
			t.Fatalf("place %d differs from a single call: %v %v", i, result.Err, err)
		}
	}
}

func TestABatchAnswersEveryItemInOrder(t *testing.T) {
	d := startDaemon(t)
	client := dial(t, d, Options{})
	ctx := context.Background()
	requests := make([]*layoutdv1.LayoutRequest, 40)
	for i := range requests {
		requests[i] = &layoutdv1.LayoutRequest{Text: caption, Width: float32(60 + 5*i)}
	}
	requests[13].Width = -1
	results, err := client.LayoutBatchResults(ctx, &layoutdv1.BatchLayoutRequest{Requests: requests}, 0)
	if err != nil || len(results) != len(requests) {
		t.Fatalf("batch: %d results, %v", len(results), err)
	}
	for i, result := range results {
		if i == 13 {
			var refused *Error
			if !errors.As(result.Err, &refused) || refused.Field != "batch_layout.requests[13].width" {
				t.Fatalf("item 13: %v", result.Err)
			}
			continue
		}
		single, err := client.Layout(ctx, requests[i])
		if result.Err != nil || err != nil || !proto.Equal(single, result.Reply) {
			t.Fatalf("item %d differs from a single call: %v %v", i, result.Err, err)
		}
	}
	// Texts sharing options; stopping early cancels the rest and the connection goes on.
	texts := make([]string, 3000)
	for i := range texts {
		texts[i] = caption
	}
	stop := errors.New("enough")
	seen := 0
	err = client.LayoutBatch(ctx, &layoutdv1.BatchLayoutRequest{Layout: &layoutdv1.LayoutRequest{Width: 200}, Texts: texts}, 0,
		func(index int, reply *layoutdv1.LayoutReply, err error) error {
			if index != seen || err != nil || reply == nil {
				t.Fatalf("item %d: %v", index, err)
			}
			seen++
			if seen == 10 {
				return stop
			}
			return nil
		})
	if !errors.Is(err, stop) || seen != 10 {
		t.Fatalf("stopped after %d: %v", seen, err)
	}
	if _, err := client.LayoutText(ctx, caption, 200); err != nil {
		t.Fatalf("after the batch: %v", err)
	}
	// Refused as a whole.
	_, err = client.LayoutBatchResults(ctx, &layoutdv1.BatchLayoutRequest{}, 0)
	var refused *Error
	if !errors.As(err, &refused) || refused.Field != "batch_layout.texts" {
		t.Fatalf("empty batch: %v", err)
	}
}

func TestTheClientOutlivesTheDaemon(t *testing.T) {
	d := startDaemon(t)
	client := dial(t, d, Options{ReconnectWait: 30 * time.Second})
	ctx := context.Background()
	before, err := client.LayoutText(ctx, caption, 200)
	if err != nil {
		t.Fatal(err)
	}
	font, err := os.ReadFile("/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.RegisterFonts(ctx, []*layoutdv1.ClientFont{{Family: "Brand", Data: font}}); err != nil {
		t.Fatal(err)
	}
	for _, signal := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		d.restart(signal)
		after, err := client.LayoutText(ctx, caption, 200)
		if err != nil || !proto.Equal(before, after) {
			t.Fatalf("after %v: %v", signal, err)
		}
		if brand, err := client.Layout(ctx, &layoutdv1.LayoutRequest{Text: "Brand", Width: 300,
			DefaultStyle: &layoutdv1.Style{Family: "Brand"}}); err != nil || len(brand.Runs) == 0 {
			t.Fatalf("the registered font after %v: %v", signal, err)
		}
	}

	// Calls in flight through a crash are sent again: every one returns its reply.
	done := make(chan error, 64)
	for i := 0; i < 64; i++ {
		go func() {
			for j := 0; j < 20; j++ {
				reply, err := client.LayoutText(ctx, caption, 200)
				if err == nil && !proto.Equal(reply, before) {
					err = fmt.Errorf("another reply")
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	time.Sleep(5 * time.Millisecond)
	d.restart(syscall.SIGKILL)
	for i := 0; i < 64; i++ {
		if err := <-done; err != nil {
			t.Fatalf("a call through the crash: %v", err)
		}
	}

	// Documents die with their connection.
	layout := &layoutdv1.LayoutRequest{Text: "Some text.", Width: 300}
	opened, err := client.OpenDocument(ctx, layout)
	if err != nil {
		t.Fatal(err)
	}
	edit := &layoutdv1.EditDocumentRequest{Document: opened.Document, Edits: []*layoutdv1.DocumentEdit{{
		Edit: &layoutdv1.DocumentEdit_Replace{Replace: &layoutdv1.TextReplacement{Range: &layoutdv1.Range{}, Text: "x"}}}}}
	if _, err := client.EditDocument(ctx, edit); err != nil {
		t.Fatal(err)
	}
	d.restart(syscall.SIGTERM)
	if _, err := client.EditDocument(ctx, edit); !errors.Is(err, ErrDocumentGone) || !strings.Contains(err.Error(), "open it again") {
		t.Fatalf("an edit after the restart: %v", err)
	}
	again, err := client.OpenDocument(ctx, layout)
	if err != nil {
		t.Fatal(err)
	}
	edit.Document = again.Document
	if edited, err := client.EditDocument(ctx, edit); err != nil || edited.Changes[0].DeltaOffset != 1 {
		t.Fatalf("an edit on the document opened again: %v", err)
	}

	// No daemon within the wait: unreachable; it comes back with the daemon.
	d.stop(syscall.SIGTERM)
	quick := dialAfterStop(t, d)
	if _, err := quick.LayoutText(ctx, caption, 200); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("no daemon: %v", err)
	}
	d.start()
	if _, err := quick.LayoutText(ctx, caption, 200); err != nil {
		t.Fatalf("back: %v", err)
	}
}

// dialAfterStop is a client whose connection is already lost, with a short reconnect wait.
func dialAfterStop(t *testing.T, d *daemon) *Client {
	d.start()
	client := dial(t, d, Options{ReconnectWait: 200 * time.Millisecond})
	d.stop(syscall.SIGTERM)
	return client
}

// The cross-language vectors (Tests/LayoutWireTests/Vectors): every envelope in golden.json
// encodes to the bytes in golden.hex, and every frame decodes to it. The Python, Swift and C
// clients check the same files.
func TestGoldenVectors(t *testing.T) {
	vectors := filepath.Join(root, "Tests", "LayoutWireTests", "Vectors")
	var spec map[string]map[string]json.RawMessage
	data, err := os.ReadFile(filepath.Join(vectors, "golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &spec); err != nil {
		t.Fatal(err)
	}
	hexes, err := os.ReadFile(filepath.Join(vectors, "golden.hex"))
	if err != nil {
		t.Fatal(err)
	}
	frames := map[string][]byte{}
	for _, line := range strings.Split(strings.TrimSpace(string(hexes)), "\n") {
		label, bytesHex, _ := strings.Cut(line, " ")
		frames[label], _ = hex.DecodeString(bytesHex)
	}
	count := 0
	for group, prefix := range map[string]string{"requests": "request", "replies": "reply"} {
		for name, body := range spec[group] {
			label := prefix + "." + name
			message := &layoutdv1.Envelope{}
			if err := protojson.Unmarshal(body, message); err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			// Go's runtime writes a oneof's member after the message's other fields, where the
			// others write fields in number order: the same fields, bytes for bytes, in another
			// order, which every parser reads alike. Held: the same length, the same header, and
			// where no oneof member follows a later field, the same bytes.
			encoded, err := frame(message)
			if err != nil || len(encoded) != len(frames[label]) || !bytes.Equal(encoded[:4], frames[label][:4]) {
				t.Errorf("%s encodes to\n%x\nnot\n%x", label, encoded, frames[label])
			}
			if sameOrder(message) && !bytes.Equal(encoded, frames[label]) {
				t.Errorf("%s encodes to\n%x\nnot\n%x", label, encoded, frames[label])
			}
			again := &layoutdv1.Envelope{}
			if err := proto.Unmarshal(encoded[4:], again); err != nil || !proto.Equal(again, message) {
				t.Errorf("%s: Go's bytes do not read back: %v", label, err)
			}
			decoded := &layoutdv1.Envelope{}
			if err := proto.Unmarshal(frames[label][4:], decoded); err != nil || !proto.Equal(decoded, message) {
				t.Errorf("%s does not decode to its value: %v", label, err)
			}
			count++
		}
	}
	if count != 35 {
		t.Fatalf("%d vectors, not 35", count)
	}
}

func TestGeneratedMessagesAreCurrent(t *testing.T) {
	check := exec.Command(filepath.Join(root, "clients", "go", "generate.sh"), "--check")
	if output, err := check.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, output)
	}
}

// sameOrder says whether Go writes `message` in field-number order: true unless some message in
// it sets a oneof member with a lower number than a plain field that is set.
func sameOrder(message proto.Message) bool {
	ordered := true
	var walk func(m protoreflect.Message)
	walk = func(m protoreflect.Message) {
		highestPlain, lowestOneof := protoreflect.FieldNumber(0), protoreflect.FieldNumber(1<<29)
		m.Range(func(field protoreflect.FieldDescriptor, value protoreflect.Value) bool {
			if field.ContainingOneof() != nil && !field.ContainingOneof().IsSynthetic() {
				if field.Number() < lowestOneof {
					lowestOneof = field.Number()
				}
			} else if field.Number() > highestPlain {
				highestPlain = field.Number()
			}
			switch {
			case field.IsList() && field.Message() != nil:
				for i := 0; i < value.List().Len(); i++ {
					walk(value.List().Get(i).Message())
				}
			case field.Message() != nil && !field.IsMap():
				walk(value.Message())
			}
			return true
		})
		if lowestOneof < highestPlain {
			ordered = false
		}
	}
	walk(message.ProtoReflect())
	return ordered
}
