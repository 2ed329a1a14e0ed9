/// Receives a glyph's outline in font units, y up from the baseline, as its face draws it.
package protocol OutlineSink: AnyObject {
    func move(to x: Float, _ y: Float)
    func line(to x: Float, _ y: Float)
    func quad(_ cx: Float, _ cy: Float, to x: Float, _ y: Float)
    func cubic(_ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float, to x: Float, _ y: Float)
    func close()
}
