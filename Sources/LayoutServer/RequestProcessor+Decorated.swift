import LayoutEngine
import LayoutWire

/// The work behind layout, justify and render replies, shared so each runs one way.
/// Errors name fields relative to the request; callers put the request's name in front.
extension RequestProcessor {
    struct DecoratedLayout {
        var layout: ParagraphLayout
        var backgrounds: [Background]
        /// What the request's formatting rules matched, as the reply lists them.
        var ruleMatches: [Layoutd_V1_RuleMatch] = []
        /// The request's flow and text path as converted for the layout: a picture with
        /// `show_shapes` draws them.
        var flow: TextFlow? = nil
        var textPath: Path? = nil
    }

    struct DecoratedStory {
        var plan: JustifyPlan
        var fitted: TypeModeLayout
        var backgrounds: [Background]
        var effects: TextEffects
    }

    /// Validates, lays out and decorates a layout request.
    func decoratedLayout(_ request: Layoutd_V1_LayoutRequest, budget: WorkBudget = .unlimited) throws -> DecoratedLayout {
        // Rules match the whole text: a text over the limit is refused before they run.
        if !request.rules.isEmpty || request.builtinRules != .none { try checkTextLength(request.text.utf16.count) }
        // Taken apart, not kept whole: a copy of the request out of the tuple retained every
        // array of its text, then released them.
        let (paragraph, ruleMatches, ruleNames) = try request.formattedRequest(fonts: layouter.fonts, budget: budget)
        try checkTextLength(paragraph.text.units.count)
        let matches = ruleMatches.map { Layoutd_V1_RuleMatch($0, names: ruleNames) }
        var specs: [BackgroundStyle] = []
        for (index, spec) in request.backgrounds.enumerated() {
            specs.append(try spec.style(field: "backgrounds[\(index)]", text: request.text))
        }
        let layout = try layouter.layout(paragraph, budget: budget)
        // Most layouts ask for no background: no decorator is built for them.
        guard !specs.isEmpty else {
            return DecoratedLayout(layout: layout, backgrounds: [], ruleMatches: matches, flow: paragraph.flow, textPath: paragraph.textPath?.path)
        }
        let backgrounds = try decorated(layout, text: request.text, with: specs, budget: budget)
        return DecoratedLayout(layout: layout, backgrounds: backgrounds, ruleMatches: matches, flow: paragraph.flow,
                               textPath: paragraph.textPath?.path)
    }

    /// `specs` made behind `layout`'s text (vertical text's in its lines' frame, turned with them).
    func decorated(_ layout: ParagraphLayout, text: String, with specs: [BackgroundStyle], budget: WorkBudget) throws -> [Background] {
        try decorate(specs, with: Decorator(layout: layout, text: text, fonts: layouter.fonts, budget: budget))
    }

    /// Decorates in order, refusing as soon as the rects of all backgrounds so far pass
    /// `Bounds.maxBackgroundRects`, before the rest are made.
    func decorate(_ specs: [BackgroundStyle], with decorator: Decorator) throws -> [Background] {
        var backgrounds: [Background] = []
        var rects = 0
        for spec in specs {
            let background = try decorator.decorate(spec)
            rects += background.rects.count
            guard rects <= Bounds.maxBackgroundRects else {
                throw LayoutError(.resourceExhausted, "the backgrounds come to more than \(Bounds.maxBackgroundRects) rects, "
                                  + "the most one reply may hold (\(rects) by background \(backgrounds.count))", field: "backgrounds")
            }
            backgrounds.append(background)
        }
        return backgrounds
    }

    /// Type Mode: applies the preset, fits, decorates and derives the preset's colours.
    func decoratedStory(_ request: Layoutd_V1_JustifyRequest, budget: WorkBudget = .unlimited) throws -> DecoratedStory {
        if !request.rules.isEmpty || request.builtinRules != .none { try checkTextLength(request.text.utf16.count) }
        let plan = try request.plan(fonts: layouter.fonts, budget: budget)
        // Counted from the units the plan made: `String.utf16.count` of text past ASCII builds
        // the string's index breadcrumbs first.
        try checkTextLength(plan.request.units?.count ?? plan.request.text.utf16.count)
        let fitted = try layouter.justify(plan.request, budget: budget)
        let backgrounds = plan.backgrounds.isEmpty ? [] : try decorated(fitted.paragraph, text: plan.request.text,
                                                                       with: plan.backgrounds, budget: budget)
        let effects = TextEffects.derive(preset: plan.presetName, palette: plan.palette,
                                         largestSize: fitted.lineSizes.max() ?? plan.request.minSize)
        return DecoratedStory(plan: plan, fitted: fitted, backgrounds: backgrounds, effects: effects)
    }

    func checkTextLength(_ units: Int) throws {
        guard units <= configuration.maxTextUnits else {
            throw LayoutError(.resourceExhausted, "text is \(units) UTF-16 units; this server takes at most \(configuration.maxTextUnits)",
                              field: "text")
        }
    }
}
