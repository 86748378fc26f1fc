import Foundation

/// A run over its frames, as one picture: the viewport's y, corrections, paragraphs shaped,
/// attachment views made and discarded, and broken checks, each a row of the chart, with failing
/// frames marked, so a glance shows where a run went wrong. Drawn as SVG by TextReel itself (a few
/// polylines and rects need no library), for `render --chart out.svg` and each case of a report.
public struct RunChart: Codable, Sendable, Equatable {
    /// One frame's measures.
    public struct Point: Codable, Sendable, Equatable {
        /// The frame's number.
        public var frame: Int
        /// The viewport's top, in points.
        public var y: Double
        /// The correction the scroll anchor absorbed.
        public var correction: Double
        /// Paragraphs shaped in the frame.
        public var shaped: Int
        /// Attachment views made (or made again) and discarded.
        public var created: Int, discarded: Int
        /// Broken invariants and budgets.
        public var broken: Int
    }

    /// The frames, in order.
    public var points: [Point] = []

    /// An empty chart.
    public init() {}

    /// Adds frame `event`, with the checks it breaks.
    public mutating func add(_ event: FrameEvent, broken: Int) {
        points.append(Point(frame: event.frame, y: event.viewport.y, correction: event.correction, shaped: event.laidOut.count,
                            created: event.checks.created + event.checks.recreated, discarded: event.checks.discarded, broken: broken))
    }

    /// The rows: name, colour, and the value of each frame.
    private var rows: [(name: String, color: String, values: [Double])] {
        [("viewport y (pt)", "#0969da", points.map(\.y)),
         ("correction (pt)", "#9a6700", points.map(\.correction)),
         ("paragraphs shaped", "#8250df", points.map { Double($0.shaped) }),
         ("views made", "#1a7f37", points.map { Double($0.created) }),
         ("views discarded", "#bc4c00", points.map { Double($0.discarded) }),
         ("broken checks", "#cf222e", points.map { Double($0.broken) })]
    }

    private static let rowHeight = 46.0, top = 18.0, rowCount = 6

    /// The chart's height in points (its width is the one asked for).
    public static let height = top + Double(rowCount) * rowHeight + 22

    /// The chart as an SVG document, `width` points wide; frames that break a check, and those
    /// in `failing` (a report's differing frames), get a red band.
    public func svg(width: Double = 720, failing: Set<Int> = []) -> String {
        let failing = failing.union(points.filter { $0.broken > 0 }.map(\.frame))
        let rowHeight = Self.rowHeight, left = 132.0, right = 56.0, top = Self.top
        let plot = width - left - right
        let rows = self.rows
        let height = Self.height
        let count = max(points.count, 1)
        func x(_ index: Int) -> Double { left + (count == 1 ? plot / 2 : plot * Double(index) / Double(count - 1)) }
        func n(_ v: Double) -> String { NumberText.text((v * 10).rounded() / 10) }
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" viewBox="0 0 \(n(width)) \(n(height))" \
        font-family="sans-serif" font-size="11"><rect width="100%" height="100%" fill="#ffffff"/>
        """
        // Failing frames first, behind everything.
        let band = max(plot / Double(count), 1)
        for (index, point) in points.enumerated() where failing.contains(point.frame) {
            svg += "<rect x=\"\(n(x(index) - band / 2))\" y=\"\(n(top - 6))\" width=\"\(n(band))\" height=\"\(n(Double(rows.count) * rowHeight))\" fill=\"#cf222e\" fill-opacity=\"0.15\"><title>frame \(point.frame) fails</title></rect>"
        }
        for (r, row) in rows.enumerated() {
            let base = top + Double(r) * rowHeight, inner = rowHeight - 14
            let low = min(row.values.min() ?? 0, 0), high = max(row.values.max() ?? 0, 0)
            let span = high - low > 0 ? high - low : 1
            func y(_ v: Double) -> Double { base + inner - (v - low) / span * inner }
            svg += "<text x=\"4\" y=\"\(n(base + inner / 2 + 4))\" fill=\"#1f2328\">\(row.name)</text>"
            svg += "<line x1=\"\(n(left))\" y1=\"\(n(y(0)))\" x2=\"\(n(left + plot))\" y2=\"\(n(y(0)))\" stroke=\"#d0d7de\"/>"
            svg += "<text x=\"\(n(left + plot + 4))\" y=\"\(n(base + 8))\" fill=\"#57606a\">\(n(high))</text>"
            if low < 0 { svg += "<text x=\"\(n(left + plot + 4))\" y=\"\(n(base + inner))\" fill=\"#57606a\">\(n(low))</text>" }
            let line = row.values.enumerated().map { "\(n(x($0.offset))),\(n(y($0.element)))" }.joined(separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(row.color)\" stroke-width=\"1.5\" points=\"\(line)\"/>"
        }
        let last = points.last?.frame ?? 0
        svg += "<text x=\"\(n(left))\" y=\"\(n(height - 6))\" fill=\"#57606a\">frame \(points.first?.frame ?? 0)</text>"
        svg += "<text x=\"\(n(left + plot))\" y=\"\(n(height - 6))\" fill=\"#57606a\" text-anchor=\"end\">frame \(last)</text>"
        return svg + "</svg>\n"
    }
}
