package layoutd

import (
	"context"
	"sync"
	"time"

	"layoutd/clients/go/layoutdv1"
)

// Layout lays a request out.
func (c *Client) Layout(ctx context.Context, request *layoutdv1.LayoutRequest) (*layoutdv1.LayoutReply, error) {
	reply, err := c.Call(ctx, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_Layout{Layout: request}})
	if err != nil {
		return nil, err
	}
	return expect(reply.GetLayoutReply(), "layout")
}

// LayoutText lays `text` out `width` points wide in the daemon's default style.
func (c *Client) LayoutText(ctx context.Context, text string, width float32) (*layoutdv1.LayoutReply, error) {
	return c.Layout(ctx, &layoutdv1.LayoutRequest{Text: text, Width: width})
}

// Result is one place of a batch: the reply, or the error of that request alone.
type Result struct {
	Reply *layoutdv1.LayoutReply
	Err   error
}

// LayoutMany lays every request out with up to `window` in flight at once on the connection
// (the daemon's own limit caps it); each result stands in its request's place, so one failure
// keeps the others.
func (c *Client) LayoutMany(ctx context.Context, requests []*layoutdv1.LayoutRequest, window int) []Result {
	if limit := int(c.Daemon().GetMaxInFlight()); limit > 0 && window > limit {
		window = limit
	}
	if window < 1 {
		window = 1
	}
	results := make([]Result, len(requests))
	slots := make(chan struct{}, window)
	var group sync.WaitGroup
	for index, request := range requests {
		slots <- struct{}{}
		group.Add(1)
		go func(index int, request *layoutdv1.LayoutRequest) {
			defer func() { <-slots; group.Done() }()
			results[index].Reply, results[index].Err = c.Layout(ctx, request)
		}(index, request)
	}
	group.Wait()
	return results
}

// LayoutBatch lays out many texts (sharing batch.Layout's options) or whole requests in one
// batch_layout request: one round trip, the daemon answering item by item, in order
// (docs/protocol.md, "Batches"). `each` is called with every item as it arrives: its index, and
// its reply or its own error (*Error; the other items go on). An error returned by `each` stops
// the batch (the rest is cancelled) and is returned. A batch the daemon refuses as a whole
// returns its *Error before any item. A batch cut by a lost connection is not sent again.
func (c *Client) LayoutBatch(ctx context.Context, batch *layoutdv1.BatchLayoutRequest, deadlineMs uint32,
	each func(index int, reply *layoutdv1.LayoutReply, err error) error) error {
	request := &layoutdv1.Envelope{DeadlineMs: deadlineMs, Body: &layoutdv1.Envelope_BatchLayout{BatchLayout: batch}}
	if err := c.checkFeature(request); err != nil {
		return err
	}
	conn, err := c.live(0)
	if err != nil {
		return err
	}
	id := c.nextID.Add(1)
	request.RequestId = id
	bytes, err := frame(request)
	if err != nil {
		return failure(Protocol, err, "the batch cannot be encoded: %v", err)
	}
	replies, err := conn.stream(id)
	if err != nil {
		return err
	}
	defer conn.endStream(id)
	if err := conn.write(bytes); err != nil {
		return err
	}
	count := len(batch.GetTexts())
	if requests := len(batch.GetRequests()); requests > count {
		count = requests
	}
	for answered := 0; answered < count || (count == 0 && answered == 0); {
		timer := time.NewTimer(c.options.Timeout)
		var reply *layoutdv1.Envelope
		var open bool
		select {
		case reply, open = <-replies:
			timer.Stop()
		case <-timer.C:
			c.cancel(conn, id)
			return failure(Timeout, nil, "no item of the batch from layoutd within %v", c.options.Timeout)
		case <-ctx.Done():
			timer.Stop()
			c.cancel(conn, id)
			return failure(Cancelled, ctx.Err(), "the batch was cancelled after %d of %d items", answered, count)
		}
		if !open {
			return failure(ConnectionLost, nil, "the connection to layoutd was lost after %d of the batch's %d items", answered, count)
		}
		if wire := reply.GetError(); wire != nil && answered == 0 {
			return refusal(wire)
		}
		item := reply.GetBatchItem()
		if item == nil || int(item.GetIndex()) != answered {
			return failure(Protocol, nil, "batch item %d was due; the daemon sent something else", answered)
		}
		var itemErr error
		if wire := item.GetError(); wire != nil {
			itemErr = refusal(wire)
		}
		answered++
		if err := each(int(item.GetIndex()), item.GetLayout(), itemErr); err != nil {
			if answered < count {
				c.cancel(conn, id)
			}
			return err
		}
	}
	return nil
}

// LayoutBatchResults is LayoutBatch with every item's result in its place.
func (c *Client) LayoutBatchResults(ctx context.Context, batch *layoutdv1.BatchLayoutRequest, deadlineMs uint32) ([]Result, error) {
	var results []Result
	err := c.LayoutBatch(ctx, batch, deadlineMs, func(_ int, reply *layoutdv1.LayoutReply, err error) error {
		results = append(results, Result{Reply: reply, Err: err})
		return nil
	})
	return results, err
}

// Justify is Type Mode: every line justified at its own size.
func (c *Client) Justify(ctx context.Context, request *layoutdv1.JustifyRequest) (*layoutdv1.JustifyReply, error) {
	reply, err := c.Call(ctx, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_Justify{Justify: request}})
	if err != nil {
		return nil, err
	}
	return expect(reply.GetJustifyReply(), "justify")
}

// Render draws a layout, a Type Mode text or image tags (PNG, SVG or PDF).
func (c *Client) Render(ctx context.Context, request *layoutdv1.RenderRequest) (*layoutdv1.RenderReply, error) {
	reply, err := c.Call(ctx, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_Render{Render: request}})
	if err != nil {
		return nil, err
	}
	return expect(reply.GetRenderReply(), "render")
}

// Tags places image tags.
func (c *Client) Tags(ctx context.Context, request *layoutdv1.TagsRequest) (*layoutdv1.TagsReply, error) {
	reply, err := c.Call(ctx, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_Tags{Tags: request}})
	if err != nil {
		return nil, err
	}
	return expect(reply.GetTagsReply(), "tags")
}

// HitTest says where points land in a layout, where carets stand, what selections cover.
func (c *Client) HitTest(ctx context.Context, request *layoutdv1.HitTestRequest) (*layoutdv1.HitTestReply, error) {
	reply, err := c.Call(ctx, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_HitTest{HitTest: request}})
	if err != nil {
		return nil, err
	}
	return expect(reply.GetHitTestReply(), "hit_test")
}

// OpenDocument opens an editing session on this connection.
func (c *Client) OpenDocument(ctx context.Context, layout *layoutdv1.LayoutRequest) (*layoutdv1.DocumentReply, error) {
	reply, err := c.Call(ctx, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_OpenDocument{
		OpenDocument: &layoutdv1.OpenDocumentRequest{Layout: layout}}})
	if err != nil {
		return nil, err
	}
	return expect(reply.GetDocumentReply(), "open_document")
}

// OpenDocumentWithViews opens a document whose text is laid out in more than one way: each view
// a LayoutRequest without text (its width, containers and styles), updated by every edit in
// DocumentReply.Views.
func (c *Client) OpenDocumentWithViews(ctx context.Context, layout *layoutdv1.LayoutRequest, views ...*layoutdv1.LayoutRequest) (*layoutdv1.DocumentReply, error) {
	reply, err := c.Call(ctx, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_OpenDocument{
		OpenDocument: &layoutdv1.OpenDocumentRequest{Layout: layout, Views: views}}})
	if err != nil {
		return nil, err
	}
	return expect(reply.GetDocumentReply(), "open_document")
}

// OpenTypeModeDocument opens Type Mode in an editing session: each change's FittedLines give
// its paragraphs' line sizes, and each reply the whole story's backgrounds and colours.
func (c *Client) OpenTypeModeDocument(ctx context.Context, story *layoutdv1.JustifyRequest) (*layoutdv1.DocumentReply, error) {
	reply, err := c.Call(ctx, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_OpenDocument{
		OpenDocument: &layoutdv1.OpenDocumentRequest{TypeMode: story}}})
	if err != nil {
		return nil, err
	}
	return expect(reply.GetDocumentReply(), "open_document")
}

// EditDocument edits an open document; the paragraphs laid out again and how the rest moved.
func (c *Client) EditDocument(ctx context.Context, request *layoutdv1.EditDocumentRequest) (*layoutdv1.DocumentReply, error) {
	reply, err := c.Call(ctx, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_EditDocument{EditDocument: request}})
	if err != nil {
		return nil, err
	}
	return expect(reply.GetDocumentReply(), "edit_document")
}

// CloseDocument ends an editing session.
func (c *Client) CloseDocument(ctx context.Context, document uint64) error {
	_, err := c.Call(ctx, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_CloseDocument{
		CloseDocument: &layoutdv1.CloseDocumentRequest{Document: document}}})
	return err
}

// RegisterFonts registers fonts on this client (and again on each new connection): later
// requests may name their families. Returns the faces added.
func (c *Client) RegisterFonts(ctx context.Context, fonts []*layoutdv1.ClientFont) ([]*layoutdv1.FontFace, error) {
	reply, err := c.Call(ctx, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_RegisterFonts{
		RegisterFonts: &layoutdv1.RegisterFontsRequest{Fonts: fonts}}})
	if err != nil {
		return nil, err
	}
	registered, err := expect(reply.GetRegisterFontsReply(), "register_fonts")
	if err != nil {
		return nil, err
	}
	return registered.Faces, nil
}

// Fonts lists the daemon's faces and fallback order.
func (c *Client) Fonts(ctx context.Context) (*layoutdv1.FontsReply, error) {
	reply, err := c.Call(ctx, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_Fonts{Fonts: &layoutdv1.FontsRequest{}}})
	if err != nil {
		return nil, err
	}
	return expect(reply.GetFontsReply(), "fonts")
}

// Stats is the daemon's counters.
func (c *Client) Stats(ctx context.Context) (*layoutdv1.StatsReply, error) {
	reply, err := c.Call(ctx, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_Stats{Stats: &layoutdv1.StatsRequest{}}})
	if err != nil {
		return nil, err
	}
	return expect(reply.GetStatsReply(), "stats")
}

func expect[T any](body *T, request string) (*T, error) {
	if body == nil {
		return nil, failure(Protocol, nil, "the daemon answered a %s request with another kind of reply", request)
	}
	return body, nil
}
