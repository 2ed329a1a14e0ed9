extension ParagraphRequest {
    /// Rejects what cannot be laid out, naming the field (proto names, snake_case).
    /// `scratch`, when given, remembers the last styles found valid on these fonts: most
    /// requests in a row share their styles, and are not checked again.
    func validate(fonts: FontRegistry, maxTextLength: Int, scratch: LayoutScratch? = nil) throws {
        guard text.units.count <= maxTextLength else {
            throw LayoutError(.resourceExhausted,
                              "text is \(text.units.count) UTF-16 units; the limit is \(maxTextLength)", field: "text")
        }
        if writingMode.isVertical, let flow {
            // Each container's height is its columns' length.
            for (index, container) in flow.containers.enumerated() where container.height == nil {
                throw LayoutError(.invalidArgument, "vertical text needs each container's height: the length of its columns",
                                  field: flow.isOneBox ? "height" : "containers[\(index)].height")
            }
        }
        if text.hasEmphasis, textPath != nil {
            throw LayoutError(.invalidArgument, "emphasis marks are drawn on lines only, so far (not on a path)", field: "emphasis")
        }
        if text.hasRuby {
            try RubyAnnotation.validate(text.ruby, units: text.units)
            if textPath != nil {
                throw LayoutError(.invalidArgument, "ruby is set on lines only, so far (not on a path)", field: "ruby_annotations")
            }
            if autoSize != nil {
                throw LayoutError(.invalidArgument, "ruby is measured at the text's size: not with auto_size, so far",
                                  field: "ruby_annotations")
            }
        }
        guard (0...4).contains(combineUpright) else {
            throw LayoutError(.invalidArgument, "must be in [0, 4] characters, got \(combineUpright)", field: "text_combine_upright")
        }
        // No options box, no paragraph style to check: nearly every request (its getter copies
        // the plain style, and comparing against it is not free).
        if typography != nil { try paragraphStyle.validate() }
        if typography != nil && flow != nil && paragraphStyle.spacingBefore + paragraphStyle.spacingAfter > 0 {
            throw LayoutError(.invalidArgument, "paragraph spacing applies to text in one box; text that flows (vertical alignment, "
                              + "exclusions, shapes, containers) has none yet", field: "paragraph_style.spacing_before")
        }
        if let textPath { try validate(textPath) }
        if let fit = autoSize {
            guard fit.minScale.isFinite, fit.minScale > 0, fit.minScale <= 1 else {
                throw LayoutError(.invalidArgument, "min_scale must be in (0, 1], got \(fit.minScale)", field: "auto_size.min_scale")
            }
            guard fit.step.isFinite, fit.step >= 0, fit.step <= 1_000 else {
                throw LayoutError(.invalidArgument, "step must be in [0, 1000] points, got \(fit.step)", field: "auto_size.step")
            }
            guard height != nil || maxLines != nil || flow?.containers.first?.height != nil else {
                throw LayoutError(.invalidArgument, "auto-size fits the text into a box: give a height or max_lines", field: "auto_size")
            }
        }
        // Text that flows has a width and height per container.
        if let flow {
            try flow.validate()
        } else {
            try Bounds.check(width, upTo: Bounds.maxLength, field: "width")
            if let height { try Bounds.check(height, upTo: Bounds.maxLength, field: "height") }
        }
        try Bounds.check(lineHeightMultiple, upTo: Bounds.maxLineHeightMultiple, field: "line_height_multiple", unit: "")
        if let lineHeight { try Bounds.check(lineHeight, upTo: Bounds.maxLineHeight, field: "line_height") }
        // UTF-16 never has more units than UTF-8 has bytes, and a native string knows its bytes:
        // the default "…" is not counted unit by unit on every request.
        if let token = truncationToken, token.utf8.count > 256, token.utf16.count > 256 {
            throw LayoutError(.invalidArgument, "truncation_token is longer than 256 UTF-16 units", field: "truncation_token")
        }
        if let scratch, scratch.lastValidFonts === fonts, scratch.lastValidStyles == text.styles {
            // Checked before, on these fonts.
        } else {
            for (index, style) in text.styles.enumerated() {
                try Self.validate(style, fonts: fonts, field: index == 0 ? "default_style" : "spans")
            }
            scratch?.lastValidStyles = text.styles
            scratch?.lastValidFonts = fonts
        }
        for (index, paint) in text.paints.enumerated() where !text.isPlain {
            try StyleRules.check(paint, field: index == 0 ? "default_style" : "spans")
        }
    }

    /// Text on a path is one line bent along it: what needs lines, a box or ink measured
    /// upright is refused, as is a path that is not one.
    private func validate(_ textPath: TextPath) throws(LayoutError) {
        let refused: [(Bool, String, String)] = [
            (writingMode.isVertical, "writing_mode", "vertical text"), (flow != nil, "containers", "text that flows"),
            (!attachments.isEmpty, "attachments", "attachments"), (maxLines != nil, "max_lines", "max_lines"),
            (autoSize != nil, "auto_size", "auto_size"), (measuresInk, "ink", "ink bounds"),
            (text.paints.contains(where: \.isDecorated), "text_path", "underlines, strikethroughs and span backgrounds"),
        ]
        for (isSet, field, what) in refused where isSet {
            throw LayoutError(.invalidArgument, "text on a path is one line along it: \(what) cannot be set on it", field: field)
        }
        let commands = textPath.path.commands
        try Bounds.check(count: commands.count, limit: TextPath.maxCommands, field: "text_path.path.commands")
        guard case .move = commands.first else {
            throw LayoutError(.invalidArgument, "a path starts with a move", field: "text_path.path.commands[0]")
        }
        for (index, command) in commands.enumerated() {
            for point in command.points where !(point.x.isFinite && point.y.isFinite && abs(point.x) <= Bounds.maxLength
                                                && abs(point.y) <= Bounds.maxLength) {
                throw LayoutError(.invalidArgument, "coordinates must be finite and within ±1,000,000 points",
                                  field: "text_path.path.commands[\(index)].points")
            }
        }
        guard textPath.startOffset.isFinite, abs(textPath.startOffset) <= Bounds.maxLength else {
            throw LayoutError(.invalidArgument, "start_offset must be within ±1,000,000 points, got \(textPath.startOffset)",
                              field: "text_path.start_offset")
        }
    }

    static func validate(_ style: TextStyle, fonts: FontRegistry, field: String) throws {
        try StyleRules.check(style, field: field)
        // The memoized match: the layout's font set-up asks the same question next.
        if !style.family.isEmpty && fonts.cachedMatch(family: style.family, weight: style.effectiveWeight, italic: style.italic) == nil {
            throw LayoutError(.notFound, "no loaded font family named \"\(style.family)\"", field: field + ".family")
        }
    }
}
