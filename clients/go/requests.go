package layoutd

import (
	"context"
	"sync"

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
