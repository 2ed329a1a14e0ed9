/* Every request of Tests/LayoutWireTests/Vectors/golden.json built by hand with protobuf-c, as a
 * C program would build it, for golden-test.c to encode and compare with Python's bytes. */
#include "golden-requests.h"

#include <string.h>

/* Storage for one request at a time: every builder fills these and points the envelope at them. */
static Layoutd__V1__Envelope envelope;
static union {
    Layoutd__V1__HelloRequest hello;
    Layoutd__V1__LayoutRequest layout;
    Layoutd__V1__FontsRequest fonts;
    Layoutd__V1__StatsRequest stats;
    Layoutd__V1__JustifyRequest justify;
    Layoutd__V1__RenderRequest render;
    Layoutd__V1__TagsRequest tags;
    Layoutd__V1__TagHitRequest tag_hit;
    Layoutd__V1__TagStyleRequest tag_style;
    Layoutd__V1__ReloadRequest reload;
    Layoutd__V1__Cancel cancel;
    Layoutd__V1__HitTestRequest hit_test;
    Layoutd__V1__OpenDocumentRequest open_document;
    Layoutd__V1__EditDocumentRequest edit_document;
    Layoutd__V1__CloseDocumentRequest close_document;
    Layoutd__V1__RegisterFontsRequest register_fonts;
} body;

static Layoutd__V1__Envelope *start(uint64_t id, Layoutd__V1__Envelope__BodyCase kind) {
    Layoutd__V1__Envelope blank = LAYOUTD__V1__ENVELOPE__INIT;
    envelope = blank;
    envelope.request_id = id;
    envelope.body_case = kind;
    memset(&body, 0, sizeof body);
    return &envelope;
}

static Layoutd__V1__Envelope *hello(void) {
    start(1, LAYOUTD__V1__ENVELOPE__BODY_HELLO);
    Layoutd__V1__HelloRequest request = LAYOUTD__V1__HELLO_REQUEST__INIT;
    request.client_name = "golden \xe2\x9c\x93";
    body.hello = request;
    envelope.hello = &body.hello;
    return &envelope;
}

static Layoutd__V1__Envelope *layout(void) {
    start(2, LAYOUTD__V1__ENVELOPE__BODY_LAYOUT);
    envelope.deadline_ms = 250;
    static Layoutd__V1__Spacing letter_spacing = LAYOUTD__V1__SPACING__INIT, raised = LAYOUTD__V1__SPACING__INIT;
    letter_spacing.points = -0.25f;
    raised.points = 2;
    static Layoutd__V1__Feature liga = LAYOUTD__V1__FEATURE__INIT, ss01 = LAYOUTD__V1__FEATURE__INIT;
    liga.tag = "liga";
    ss01.tag = "ss01";
    ss01.value = 1;
    static Layoutd__V1__Feature *features[] = {&liga, &ss01};
    static Layoutd__V1__Style base = LAYOUTD__V1__STYLE__INIT;
    base.family = "Noto Sans";
    base.size = 18.5f;
    base.weight = 400;
    base.letter_spacing = &letter_spacing;
    base.n_features = 2;
    base.features = features;
    base.language = "en";

    static Layoutd__V1__Color orange = LAYOUTD__V1__COLOR__INIT;
    orange.red = 1;
    orange.green = 0.5f;
    orange.blue = 0.25f;
    static Layoutd__V1__DecorationLine underline = LAYOUTD__V1__DECORATION_LINE__INIT;
    underline.style = LAYOUTD__V1__LINE_STYLE__LINE_STYLE_DOUBLE;
    underline.skip_ink = 1;
    static Layoutd__V1__Style bold = LAYOUTD__V1__STYLE__INIT, italic = LAYOUTD__V1__STYLE__INIT;
    bold.weight = 700;
    bold.color = &orange;
    bold.underline = &underline;
    italic.slant = LAYOUTD__V1__SLANT__SLANT_ITALIC;
    italic.baseline_offset = &raised;
    static Layoutd__V1__Range first = LAYOUTD__V1__RANGE__INIT, second = LAYOUTD__V1__RANGE__INIT;
    first.start = 3;
    first.length = 2;
    second.start = 6;
    second.length = 5;
    static Layoutd__V1__StyleSpan span1 = LAYOUTD__V1__STYLE_SPAN__INIT, span2 = LAYOUTD__V1__STYLE_SPAN__INIT;
    span1.range = &first;
    span1.style = &bold;
    span2.range = &second;
    span2.style = &italic;
    static Layoutd__V1__StyleSpan *spans[] = {&span1, &span2};

    static Layoutd__V1__Truncation truncation = LAYOUTD__V1__TRUNCATION__INIT;
    truncation.token = "\xe2\x80\xa6";
    truncation.mode = LAYOUTD__V1__TRUNCATION_MODE__TRUNCATION_MODE_MIDDLE;
    static Layoutd__V1__BackgroundGeometry geometry = LAYOUTD__V1__BACKGROUND_GEOMETRY__INIT;
    geometry.horizontal_padding = 8;
    geometry.vertical_padding = 4;
    geometry.corner_radius = 6;
    static Layoutd__V1__Color fill = LAYOUTD__V1__COLOR__INIT;
    fill.red = 0.1f;
    fill.green = 0.2f;
    fill.blue = 0.3f;
    fill.transparency = 0.5f;
    static Layoutd__V1__BackgroundSpec background = LAYOUTD__V1__BACKGROUND_SPEC__INIT;
    background.kind = LAYOUTD__V1__BACKGROUND_SPEC__KIND__CONNECTED;
    background.geometry = &geometry;
    background.fill = &fill;
    static Layoutd__V1__BackgroundSpec *backgrounds[] = {&background};
    static Layoutd__V1__Attachment attachment = LAYOUTD__V1__ATTACHMENT__INIT;
    attachment.width = 24;
    attachment.height = 16;
    attachment.alignment = LAYOUTD__V1__ATTACHMENT_ALIGNMENT__ATTACHMENT_ALIGNMENT_FONT_CENTER;
    attachment.keep_with_text = 1;
    static Layoutd__V1__Attachment *attachments[] = {&attachment};
    static Layoutd__V1__Rect oval = LAYOUTD__V1__RECT__INIT;
    oval.x = 200;
    oval.width = 100;
    oval.height = 80;
    static Layoutd__V1__Shape shape = LAYOUTD__V1__SHAPE__INIT;
    shape.geometry_case = LAYOUTD__V1__SHAPE__GEOMETRY_ELLIPSE;
    shape.ellipse = &oval;
    static Layoutd__V1__Exclusion exclusion = LAYOUTD__V1__EXCLUSION__INIT;
    exclusion.shape = &shape;
    exclusion.margin = 6;
    exclusion.wrap = LAYOUTD__V1__WRAP_SIDE__WRAP_SIDE_START;
    static Layoutd__V1__Exclusion *exclusions[] = {&exclusion};

    Layoutd__V1__LayoutRequest request = LAYOUTD__V1__LAYOUT_REQUEST__INIT;
    request.text = "H\xc3\xa9 \xf0\x9f\x91\x8b \xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7\n\xef\xbf\xbc under a picture";
    request.default_style = &base;
    request.n_spans = 2;
    request.spans = spans;
    request.width = 300;
    request.height = 400;
    request.alignment = LAYOUTD__V1__ALIGNMENT__ALIGNMENT_CENTER;
    request.direction = LAYOUTD__V1__DIRECTION__DIRECTION_AUTO;
    request.line_height_multiple = 1.2f;
    request.max_lines = 3;
    request.truncation = &truncation;
    request.n_backgrounds = 1;
    request.backgrounds = backgrounds;
    request.n_attachments = 1;
    request.attachments = attachments;
    request.n_exclusions = 1;
    request.exclusions = exclusions;
    request.min_fragment_width = 12.5f;
    body.layout = request;
    envelope.layout = &body.layout;
    return &envelope;
}

static Layoutd__V1__Envelope *fonts(void) {
    start(3, LAYOUTD__V1__ENVELOPE__BODY_FONTS);
    Layoutd__V1__FontsRequest request = LAYOUTD__V1__FONTS_REQUEST__INIT;
    body.fonts = request;
    envelope.fonts = &body.fonts;
    return &envelope;
}

static Layoutd__V1__Envelope *stats(void) {
    start(4, LAYOUTD__V1__ENVELOPE__BODY_STATS);
    Layoutd__V1__StatsRequest request = LAYOUTD__V1__STATS_REQUEST__INIT;
    request.prometheus = 1;
    body.stats = request;
    envelope.stats = &body.stats;
    return &envelope;
}

static Layoutd__V1__Envelope *justify(void) {
    start(5, LAYOUTD__V1__ENVELOPE__BODY_JUSTIFY);
    static Layoutd__V1__BackgroundGeometry geometry = LAYOUTD__V1__BACKGROUND_GEOMETRY__INIT;
    geometry.horizontal_padding = 10;
    geometry.corner_radius = 8;
    static Layoutd__V1__Color white = LAYOUTD__V1__COLOR__INIT;
    white.red = white.green = white.blue = 1;
    static Layoutd__V1__BackgroundSpec background = LAYOUTD__V1__BACKGROUND_SPEC__INIT;
    background.kind = LAYOUTD__V1__BACKGROUND_SPEC__KIND__PER_LINE;
    background.geometry = &geometry;
    background.fill = &white;
    static Layoutd__V1__BackgroundSpec *backgrounds[] = {&background};
    Layoutd__V1__JustifyRequest request = LAYOUTD__V1__JUSTIFY_REQUEST__INIT;
    request.text = "so\nHAPPY\nto see you";
    request.preset = "strong";
    request.width = 300;
    request.min_size = 18;
    request.max_size = 80;
    request.sizing = LAYOUTD__V1__JUSTIFY_REQUEST__SIZING__PER_LINE;
    request.alignment = LAYOUTD__V1__ALIGNMENT__ALIGNMENT_LEFT;
    request.n_backgrounds = 1;
    request.backgrounds = backgrounds;
    request.whole_point_sizes = 1;
    body.justify = request;
    envelope.justify = &body.justify;
    return &envelope;
}

static Layoutd__V1__Envelope *render(void) {
    start(6, LAYOUTD__V1__ENVELOPE__BODY_RENDER);
    static Layoutd__V1__Style small = LAYOUTD__V1__STYLE__INIT;
    small.size = 12;
    static Layoutd__V1__LayoutRequest source = LAYOUTD__V1__LAYOUT_REQUEST__INIT;
    source.text = "Hi";
    source.width = 60;
    source.default_style = &small;
    static Layoutd__V1__Color white = LAYOUTD__V1__COLOR__INIT;
    white.red = white.green = white.blue = 1;
    Layoutd__V1__RenderRequest request = LAYOUTD__V1__RENDER_REQUEST__INIT;
    request.source_case = LAYOUTD__V1__RENDER_REQUEST__SOURCE_LAYOUT;
    request.layout = &source;
    request.format = LAYOUTD__V1__RENDER_REQUEST__FORMAT__SVG;
    request.scale = 1;
    request.margin = 4;
    request.canvas = &white;
    request.show_shapes = 1;
    body.render = request;
    envelope.render = &body.render;
    return &envelope;
}

static Layoutd__V1__Envelope *tags(void) {
    start(7, LAYOUTD__V1__ENVELOPE__BODY_TAGS);
    static Layoutd__V1__Point at = LAYOUTD__V1__POINT__INIT;
    at.x = 0.5f;
    at.y = 0.25f;
    static Layoutd__V1__TagLabel coat = LAYOUTD__V1__TAG_LABEL__INIT, shoes = LAYOUTD__V1__TAG_LABEL__INIT;
    coat.name = "Coat";
    coat.value = "\xc2\xa5" "1,299";
    shoes.name = "Shoes";
    static Layoutd__V1__TagLabel *labels[] = {&coat, &shoes};
    static Layoutd__V1__ImageTag tag = LAYOUTD__V1__IMAGE_TAG__INIT;
    tag.at = &at;
    tag.n_labels = 2;
    tag.labels = labels;
    tag.style = 3;
    static Layoutd__V1__ImageTag *list[] = {&tag};
    Layoutd__V1__TagsRequest request = LAYOUTD__V1__TAGS_REQUEST__INIT;
    request.photo_width = 300;
    request.photo_height = 400;
    request.n_tags = 1;
    request.tags = list;
    request.keep_inside = 1;
    body.tags = request;
    envelope.tags = &body.tags;
    return &envelope;
}

static Layoutd__V1__Envelope *tag_hit(void) {
    start(8, LAYOUTD__V1__ENVELOPE__BODY_TAG_HIT);
    static Layoutd__V1__Point at = LAYOUTD__V1__POINT__INIT, point = LAYOUTD__V1__POINT__INIT;
    at.x = 0.5f;
    at.y = 0.25f;
    point.x = 150;
    point.y = 100;
    static Layoutd__V1__TagLabel coat = LAYOUTD__V1__TAG_LABEL__INIT;
    coat.name = "Coat";
    static Layoutd__V1__TagLabel *labels[] = {&coat};
    static Layoutd__V1__ImageTag tag = LAYOUTD__V1__IMAGE_TAG__INIT;
    tag.at = &at;
    tag.n_labels = 1;
    tag.labels = labels;
    static Layoutd__V1__ImageTag *list[] = {&tag};
    static Layoutd__V1__TagsRequest photo = LAYOUTD__V1__TAGS_REQUEST__INIT;
    photo.photo_width = 300;
    photo.photo_height = 400;
    photo.n_tags = 1;
    photo.tags = list;
    Layoutd__V1__TagHitRequest request = LAYOUTD__V1__TAG_HIT_REQUEST__INIT;
    request.tags = &photo;
    request.point = &point;
    body.tag_hit = request;
    envelope.tag_hit = &body.tag_hit;
    return &envelope;
}

static Layoutd__V1__Envelope *tag_style(void) {
    start(9, LAYOUTD__V1__ENVELOPE__BODY_TAG_STYLE);
    static double degrees[] = {30.5, -45};
    static Layoutd__V1__TagAngles angles = LAYOUTD__V1__TAG_ANGLES__INIT;
    angles.n_degrees = 2;
    angles.degrees = degrees;
    Layoutd__V1__TagStyleRequest request = LAYOUTD__V1__TAG_STYLE_REQUEST__INIT;
    request.label_count = 2;
    request.operation_case = LAYOUTD__V1__TAG_STYLE_REQUEST__OPERATION_RESET;
    request.reset = &angles;
    request.tolerance_degrees = 1.5f;
    body.tag_style = request;
    envelope.tag_style = &body.tag_style;
    return &envelope;
}

static Layoutd__V1__Envelope *reload(void) {
    start(10, LAYOUTD__V1__ENVELOPE__BODY_RELOAD);
    Layoutd__V1__ReloadRequest request = LAYOUTD__V1__RELOAD_REQUEST__INIT;
    body.reload = request;
    envelope.reload = &body.reload;
    return &envelope;
}

static Layoutd__V1__Envelope *cancel(void) {
    start(12, LAYOUTD__V1__ENVELOPE__BODY_CANCEL);
    Layoutd__V1__Cancel request = LAYOUTD__V1__CANCEL__INIT;
    request.request_id = 2;
    body.cancel = request;
    envelope.cancel = &body.cancel;
    return &envelope;
}

static Layoutd__V1__Envelope *layout_refused(void) {
    start(13, LAYOUTD__V1__ENVELOPE__BODY_LAYOUT);
    Layoutd__V1__LayoutRequest request = LAYOUTD__V1__LAYOUT_REQUEST__INIT;
    request.text = "x";
    request.width = -1;
    body.layout = request;
    envelope.layout = &body.layout;
    return &envelope;
}

static Layoutd__V1__Envelope *hit_test(void) {
    start(14, LAYOUTD__V1__ENVELOPE__BODY_HIT_TEST);
    static Layoutd__V1__Style style = LAYOUTD__V1__STYLE__INIT;
    style.size = 20;
    static Layoutd__V1__LayoutRequest source = LAYOUTD__V1__LAYOUT_REQUEST__INIT;
    source.text = "Say \xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7 to me";
    source.width = 300;
    source.default_style = &style;
    static Layoutd__V1__Point near = LAYOUTD__V1__POINT__INIT, far = LAYOUTD__V1__POINT__INIT;
    near.x = 4;
    near.y = 10;
    far.x = 1000;
    far.y = -5;
    static Layoutd__V1__Point *points[] = {&near, &far};
    static Layoutd__V1__TextPosition first = LAYOUTD__V1__TEXT_POSITION__INIT, last = LAYOUTD__V1__TEXT_POSITION__INIT;
    first.offset = 4;
    last.offset = 15;
    last.affinity = LAYOUTD__V1__AFFINITY__AFFINITY_UPSTREAM;
    static Layoutd__V1__TextPosition *carets[] = {&first, &last};
    static Layoutd__V1__Range range = LAYOUTD__V1__RANGE__INIT;
    range.start = 2;
    range.length = 6;
    static Layoutd__V1__Range *selections[] = {&range};
    static uint32_t around[] = {5};
    static Layoutd__V1__TextPosition moved_from = LAYOUTD__V1__TEXT_POSITION__INIT;
    moved_from.offset = 4;
    moved_from.affinity = LAYOUTD__V1__AFFINITY__AFFINITY_UPSTREAM;
    static Layoutd__V1__CaretMove move = LAYOUTD__V1__CARET_MOVE__INIT;
    move.from = &moved_from;
    move.direction = LAYOUTD__V1__MOVE_DIRECTION__MOVE_DIRECTION_RIGHT;
    static Layoutd__V1__CaretMove *moves[] = {&move};
    Layoutd__V1__HitTestRequest request = LAYOUTD__V1__HIT_TEST_REQUEST__INIT;
    request.source_case = LAYOUTD__V1__HIT_TEST_REQUEST__SOURCE_LAYOUT;
    request.layout = &source;
    request.n_points = 2;
    request.points = points;
    request.n_carets = 2;
    request.carets = carets;
    request.n_selections = 1;
    request.selections = selections;
    request.n_around = 1;
    request.around = around;
    request.n_moves = 1;
    request.moves = moves;
    body.hit_test = request;
    envelope.hit_test = &body.hit_test;
    return &envelope;
}

static Layoutd__V1__Envelope *open_document(void) {
    start(15, LAYOUTD__V1__ENVELOPE__BODY_OPEN_DOCUMENT);
    static Layoutd__V1__Style style = LAYOUTD__V1__STYLE__INIT;
    style.size = 18;
    static Layoutd__V1__LayoutRequest layout = LAYOUTD__V1__LAYOUT_REQUEST__INIT;
    layout.text = "One line.\nAnother, longer line.";
    layout.width = 200;
    layout.default_style = &style;
    Layoutd__V1__OpenDocumentRequest request = LAYOUTD__V1__OPEN_DOCUMENT_REQUEST__INIT;
    request.layout = &layout;
    body.open_document = request;
    envelope.open_document = &body.open_document;
    return &envelope;
}

static Layoutd__V1__Envelope *edit_document(void) {
    start(16, LAYOUTD__V1__ENVELOPE__BODY_EDIT_DOCUMENT);
    static Layoutd__V1__Range typed_at = LAYOUTD__V1__RANGE__INIT, styled = LAYOUTD__V1__RANGE__INIT;
    typed_at.start = 3;
    styled.length = 3;
    static Layoutd__V1__TextReplacement replacement = LAYOUTD__V1__TEXT_REPLACEMENT__INIT;
    replacement.range = &typed_at;
    replacement.text = " more";
    static Layoutd__V1__Style bold = LAYOUTD__V1__STYLE__INIT;
    bold.weight = 700;
    static Layoutd__V1__StyleChange change = LAYOUTD__V1__STYLE_CHANGE__INIT;
    change.range = &styled;
    change.style = &bold;
    static Layoutd__V1__DocumentEdit typing = LAYOUTD__V1__DOCUMENT_EDIT__INIT, styling = LAYOUTD__V1__DOCUMENT_EDIT__INIT;
    typing.edit_case = LAYOUTD__V1__DOCUMENT_EDIT__EDIT_REPLACE;
    typing.replace = &replacement;
    styling.edit_case = LAYOUTD__V1__DOCUMENT_EDIT__EDIT_STYLE;
    styling.style = &change;
    static Layoutd__V1__DocumentEdit *edits[] = {&typing, &styling};
    static Layoutd__V1__Point point = LAYOUTD__V1__POINT__INIT;
    point.x = 10;
    point.y = 30;
    static Layoutd__V1__Point *points[] = {&point};
    static Layoutd__V1__TextPosition caret = LAYOUTD__V1__TEXT_POSITION__INIT;
    caret.offset = 5;
    static Layoutd__V1__TextPosition *carets[] = {&caret};
    Layoutd__V1__EditDocumentRequest request = LAYOUTD__V1__EDIT_DOCUMENT_REQUEST__INIT;
    request.document = 1;
    request.n_edits = 2;
    request.edits = edits;
    request.n_points = 1;
    request.points = points;
    request.n_carets = 1;
    request.carets = carets;
    body.edit_document = request;
    envelope.edit_document = &body.edit_document;
    return &envelope;
}

static Layoutd__V1__Envelope *close_document(void) {
    start(17, LAYOUTD__V1__ENVELOPE__BODY_CLOSE_DOCUMENT);
    Layoutd__V1__CloseDocumentRequest request = LAYOUTD__V1__CLOSE_DOCUMENT_REQUEST__INIT;
    request.document = 1;
    body.close_document = request;
    envelope.close_document = &body.close_document;
    return &envelope;
}

/* Tests/LayoutWireTests/Vectors/tiny.ttf (scripts/make-tiny-font.py), byte for byte. */
static const uint8_t tiny_font[] = {
    0x00, 0x01, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x80, 0x00, 0x03, 0x00, 0x20, 0x4f, 0x53, 0x2f, 0x32,
    0x45, 0x00, 0x43, 0xe2, 0x00, 0x00, 0x01, 0x28, 0x00, 0x00, 0x00, 0x60, 0x63, 0x6d, 0x61, 0x70,
    0x00, 0x75, 0x00, 0x5b, 0x00, 0x00, 0x01, 0x94, 0x00, 0x00, 0x00, 0x3c, 0x67, 0x6c, 0x79, 0x66,
    0xe4, 0x3c, 0x80, 0x3a, 0x00, 0x00, 0x01, 0xd8, 0x00, 0x00, 0x00, 0x34, 0x68, 0x65, 0x61, 0x64,
    0x30, 0x2d, 0xff, 0x62, 0x00, 0x00, 0x00, 0xac, 0x00, 0x00, 0x00, 0x36, 0x68, 0x68, 0x65, 0x61,
    0x05, 0xde, 0x02, 0x2a, 0x00, 0x00, 0x00, 0xe4, 0x00, 0x00, 0x00, 0x24, 0x68, 0x6d, 0x74, 0x78,
    0x06, 0x0e, 0x00, 0x64, 0x00, 0x00, 0x01, 0x88, 0x00, 0x00, 0x00, 0x0c, 0x6c, 0x6f, 0x63, 0x61,
    0x00, 0x1a, 0x00, 0x27, 0x00, 0x00, 0x01, 0xd0, 0x00, 0x00, 0x00, 0x08, 0x6d, 0x61, 0x78, 0x70,
    0x00, 0x05, 0x00, 0x06, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x20, 0x6e, 0x61, 0x6d, 0x65,
    0xa7, 0x0a, 0xd4, 0x5b, 0x00, 0x00, 0x02, 0x0c, 0x00, 0x00, 0x00, 0x6f, 0x70, 0x6f, 0x73, 0x74,
    0x00, 0x29, 0x00, 0x03, 0x00, 0x00, 0x02, 0x7c, 0x00, 0x00, 0x00, 0x28, 0x00, 0x01, 0x00, 0x00,
    0x00, 0x01, 0x00, 0x00, 0x8b, 0x5b, 0x66, 0x46, 0x5f, 0x0f, 0x3c, 0xf5, 0x00, 0x03, 0x03, 0xe8,
    0x00, 0x00, 0x00, 0x00, 0xe7, 0x2d, 0xdd, 0xe3, 0x00, 0x00, 0x00, 0x00, 0xe7, 0x2d, 0xdd, 0xe3,
    0x00, 0x32, 0x00, 0x00, 0x02, 0x8a, 0x02, 0xbc, 0x00, 0x00, 0x00, 0x03, 0x00, 0x02, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x03, 0x20, 0xff, 0x38, 0x00, 0x00, 0x02, 0xbc,
    0x00, 0x32, 0x00, 0x32, 0x02, 0x8a, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x04,
    0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x02, 0x05, 0x01, 0x90, 0x00, 0x05,
    0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x3f, 0x3f, 0x3f, 0x3f, 0x00, 0x00, 0x00, 0x20, 0x00, 0x41, 0x03, 0x20, 0xff, 0x38,
    0x00, 0x00, 0x03, 0x20, 0x00, 0xc8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x02, 0x58, 0x00, 0x32, 0x02, 0xbc, 0x00, 0x32,
    0x00, 0xfa, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x14,
    0x00, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x14, 0x00, 0x04, 0x00, 0x28, 0x00, 0x00, 0x00, 0x06,
    0x00, 0x04, 0x00, 0x01, 0x00, 0x02, 0x00, 0x20, 0x00, 0x41, 0xff, 0xff, 0x00, 0x00, 0x00, 0x20,
    0x00, 0x41, 0xff, 0xff, 0xff, 0xe2, 0xff, 0xc0, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x0d, 0x00, 0x1a, 0x00, 0x1a, 0x00, 0x01, 0x00, 0x32, 0x00, 0x00, 0x02, 0x26,
    0x02, 0x58, 0x00, 0x03, 0x00, 0x00, 0x33, 0x11, 0x21, 0x11, 0x32, 0x01, 0xf4, 0x02, 0x58, 0xfd,
    0xa8, 0x00, 0x00, 0x01, 0x00, 0x32, 0x00, 0x00, 0x02, 0x8a, 0x02, 0xbc, 0x00, 0x03, 0x00, 0x00,
    0x33, 0x11, 0x21, 0x11, 0x32, 0x02, 0x58, 0x02, 0xbc, 0xfd, 0x44, 0x00, 0x00, 0x00, 0x00, 0x04,
    0x00, 0x36, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x01,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x07, 0x00, 0x0c, 0x00, 0x03, 0x00, 0x01, 0x04, 0x09,
    0x00, 0x01, 0x00, 0x18, 0x00, 0x13, 0x00, 0x03, 0x00, 0x01, 0x04, 0x09, 0x00, 0x02, 0x00, 0x0e,
    0x00, 0x2b, 0x4c, 0x61, 0x79, 0x6f, 0x75, 0x74, 0x64, 0x20, 0x54, 0x69, 0x6e, 0x79, 0x52, 0x65,
    0x67, 0x75, 0x6c, 0x61, 0x72, 0x00, 0x4c, 0x00, 0x61, 0x00, 0x79, 0x00, 0x6f, 0x00, 0x75, 0x00,
    0x74, 0x00, 0x64, 0x00, 0x20, 0x00, 0x54, 0x00, 0x69, 0x00, 0x6e, 0x00, 0x79, 0x00, 0x52, 0x00,
    0x65, 0x00, 0x67, 0x00, 0x75, 0x00, 0x6c, 0x00, 0x61, 0x00, 0x72, 0x00, 0x00, 0x02, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00,
    0x00, 0x24, 0x00, 0x03
};

static Layoutd__V1__Envelope *register_fonts(void) {
    start(18, LAYOUTD__V1__ENVELOPE__BODY_REGISTER_FONTS);
    static Layoutd__V1__ClientFont font = LAYOUTD__V1__CLIENT_FONT__INIT;
    font.family = "Tiny";
    font.data.len = sizeof tiny_font;
    font.data.data = (uint8_t *)tiny_font;
    static Layoutd__V1__ClientFont *fonts[] = {&font};
    Layoutd__V1__RegisterFontsRequest request = LAYOUTD__V1__REGISTER_FONTS_REQUEST__INIT;
    request.n_fonts = 1;
    request.fonts = fonts;
    body.register_fonts = request;
    envelope.register_fonts = &body.register_fonts;
    return &envelope;
}

const GoldenRequest golden_requests[] = {
    {"request.hello", hello},       {"request.layout", layout},       {"request.fonts", fonts},
    {"request.stats", stats},       {"request.justify", justify},     {"request.render", render},
    {"request.tags", tags},         {"request.tag_hit", tag_hit},     {"request.tag_style", tag_style},
    {"request.reload", reload},     {"request.cancel", cancel},       {"request.layout_refused", layout_refused},
    {"request.hit_test", hit_test}, {"request.open_document", open_document}, {"request.edit_document", edit_document},
    {"request.close_document", close_document}, {"request.register_fonts", register_fonts},
};
const size_t golden_request_count = sizeof golden_requests / sizeof golden_requests[0];
