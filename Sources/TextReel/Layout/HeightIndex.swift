/// Paragraph heights in a chunked tree of summed heights: O(log n) y → paragraph, paragraph → y,
/// height updates and splices. Leaves hold up to `leafCapacity` heights in flat arrays, so a
/// million paragraphs cost a few thousand objects, not a million.
///
/// Leaves start *lazy*: they know how many paragraphs they hold and assume a uniform height
/// each; the first time a leaf is touched it asks `estimate` for its paragraphs' own estimates.
/// Opening a document is then O(n / leafCapacity), and estimates use the calibration of the time
/// they are made.
struct HeightIndex {
    static let leafCapacity = 256
    static let fanout = 32

    final class Node {
        var count = 0
        var measuredCount = 0
        var children: [Node] = []
        var heights: [Double] = []
        var measured: [Bool] = []
        /// Set while a leaf is lazy: the height each of its `count` paragraphs is assumed to
        /// have, asked for only when a total above the leaf is.
        var uniform: (() -> Double)?
        var isLazy: Bool { uniform != nil }
        var isLeaf: Bool { children.isEmpty }
        /// `total` since the last change: summed when first asked, so the uniform height (sampled
        /// on another thread while the first screen is shaped) is waited for only by a total.
        private var summed: Double?

        init() {}
        init(heights: [Double], measured: [Bool]) {
            self.heights = heights
            self.measured = measured
            recount()
        }
        init(lazyCount: Int, height: @escaping () -> Double) {
            uniform = height
            count = lazyCount
        }
        init(children: [Node]) {
            self.children = children
            recount()
        }

        /// The summed height of the paragraphs below: the same sums, in the same order, as when
        /// they were made at each change.
        var total: Double {
            if let summed { return summed }
            let sum: Double
            if let uniform {
                sum = Double(count) * uniform()
            } else if isLeaf {
                sum = heights.reduce(0, +)
            } else {
                sum = children.reduce(0) { $0 + $1.total }
            }
            summed = sum
            return sum
        }

        func recount() {
            summed = nil
            if isLazy { return }
            if isLeaf {
                count = heights.count
                measuredCount = measured.reduce(0) { $0 + ($1 ? 1 : 0) }
            } else {
                count = children.reduce(0) { $0 + $1.count }
                measuredCount = children.reduce(0) { $0 + $1.measuredCount }
            }
        }
    }

    private(set) var root: Node
    /// Estimates paragraph `index` when a lazy leaf is first touched.
    private let estimate: ((Int) -> Double)?

    /// An index of known heights (all estimates, none measured).
    init(heights: [Double] = []) {
        estimate = nil
        root = Self.build(stride(from: 0, to: heights.count, by: Self.leafCapacity).map { start in
            let slice = Array(heights[start..<min(start + Self.leafCapacity, heights.count)])
            return Node(heights: slice, measured: Array(repeating: false, count: slice.count))
        })
    }

    /// A lazy index of `count` paragraphs, `uniform` points each until `estimate` is asked.
    init(count: Int, uniform: Double, estimate: @escaping (Int) -> Double) {
        self.init(count: count, uniform: { uniform }, estimate: estimate)
    }

    /// A lazy index of `count` paragraphs, `uniform()` points each until `estimate` is asked;
    /// `uniform` is called when a total first needs a lazy leaf's (the first screen of a
    /// document needs none).
    init(count: Int, uniform: @escaping () -> Double, estimate: @escaping (Int) -> Double) {
        self.estimate = estimate
        root = Self.build(stride(from: 0, to: count, by: Self.leafCapacity).map {
            Node(lazyCount: min(Self.leafCapacity, count - $0), height: uniform)
        })
    }

    private static func build(_ leaves: [Node]) -> Node {
        var level = leaves.isEmpty ? [Node(heights: [], measured: [])] : leaves
        while level.count > 1 {
            level = stride(from: 0, to: level.count, by: fanout).map {
                Node(children: Array(level[$0..<min($0 + fanout, level.count)]))
            }
        }
        return level[0]
    }

    var count: Int { root.count }
    var totalHeight: Double { root.total }
    /// Total height of the measured paragraphs, and how many there are.
    var measured: (count: Int, height: Double) {
        (root.measuredCount, measuredHeight(root))
    }

    private func measuredHeight(_ node: Node) -> Double {
        if node.measuredCount == 0 { return 0 }
        if node.isLeaf { return zip(node.heights, node.measured).reduce(0) { $0 + ($1.1 ? $1.0 : 0) } }
        return node.children.reduce(0) { $0 + measuredHeight($1) }
    }

    /// (leaf, index within leaf, y of the leaf's first entry), expanding the leaf if it is lazy.
    private func locate(_ index: Int) -> (Node, Int, Double) {
        while true {
            var node = root, i = index, y = 0.0
            var path: [Node] = []
            while !node.isLeaf {
                path.append(node)
                var next = node.children[node.children.count - 1]
                for child in node.children {
                    if i < child.count { next = child; break }
                    i -= child.count
                    y += child.total
                }
                node = next
            }
            if !node.isLazy { return (node, i, y) }
            expand(node, firstIndex: index - i, path: path)
        }
    }

    /// Computes a lazy leaf's estimates and fixes the totals above it.
    private func expand(_ leaf: Node, firstIndex: Int, path: [Node]) {
        let estimate = self.estimate ?? { _ in 0 }
        leaf.uniform = nil
        leaf.heights = (firstIndex..<firstIndex + leaf.count).map(estimate)
        leaf.measured = Array(repeating: false, count: leaf.count)
        leaf.recount()
        for node in path.reversed() { node.recount() }
    }

    func height(at index: Int) -> Double {
        let (leaf, i, _) = locate(index)
        return leaf.heights[i]
    }

    func isMeasured(_ index: Int) -> Bool {
        let (leaf, i, _) = locate(index)
        return leaf.measured[i]
    }

    /// The y of the top of paragraph `index` (the total height when `index == count`).
    func offset(of index: Int) -> Double {
        if index >= count { return totalHeight }
        let (leaf, i, y) = locate(index)
        return y + leaf.heights[..<i].reduce(0, +)
    }

    /// The paragraph containing `y` (clamped to the document) and `y`'s offset within it.
    func index(containing y: Double) -> (index: Int, offset: Double) {
        guard count > 0 else { return (0, 0) }
        if y <= 0 { return (0, y) }
        while true {
            var node = root, rest = y, base = 0
            var path: [Node] = []
            while !node.isLeaf {
                path.append(node)
                var next: Node?
                for child in node.children {
                    if rest < child.total { next = child; break }
                    rest -= child.total
                    base += child.count
                }
                guard let chosen = next else { return (count - 1, y - offset(of: count - 1)) }
                node = chosen
            }
            if node.isLazy {
                expand(node, firstIndex: base, path: path)
                continue
            }
            for (i, h) in node.heights.enumerated() {
                if rest < h { return (base + i, rest) }
                rest -= h
            }
            return (count - 1, y - offset(of: count - 1))
        }
    }

    /// Sets a paragraph's height; returns how much it changed.
    @discardableResult
    mutating func setHeight(_ height: Double, at index: Int, measured: Bool) -> Double {
        _ = locate(index)
        var delta = 0.0
        Self.update(root, index) { leaf, i in
            delta = height - leaf.heights[i]
            leaf.heights[i] = height
            leaf.measured[i] = measured
        }
        return delta
    }

    mutating func insert(_ height: Double, at index: Int, measured: Bool = false) {
        if count > 0 { _ = locate(min(index, count - 1)) }
        Self.update(root, min(index, count), inserting: true) { leaf, i in
            leaf.heights.insert(height, at: i)
            leaf.measured.insert(measured, at: i)
        }
        if root.children.count > Self.fanout || (root.isLeaf && root.heights.count > 2 * Self.leafCapacity) {
            root = Node(children: Self.split(root))
        }
    }

    mutating func remove(at index: Int) {
        _ = locate(index)
        Self.update(root, index) { leaf, i in
            leaf.heights.remove(at: i)
            leaf.measured.remove(at: i)
        }
    }

    /// Descends to the (expanded) leaf holding `index`, applies `change`, and fixes sums on the
    /// way back; splits overfull children and drops empty ones.
    private static func update(_ node: Node, _ index: Int, inserting: Bool = false, _ change: (Node, Int) -> Void) {
        if node.isLeaf {
            change(node, index)
            node.recount()
            return
        }
        var i = index
        var slot = node.children.count - 1
        for (k, child) in node.children.enumerated() {
            if i < child.count || (inserting && i == child.count && k == node.children.count - 1) { slot = k; break }
            i -= child.count
        }
        let child = node.children[slot]
        update(child, i, inserting: inserting, change)
        if child.count == 0 && node.children.count > 1 {
            node.children.remove(at: slot)
        } else if (child.isLeaf && child.heights.count > 2 * leafCapacity) || child.children.count > fanout {
            node.children.replaceSubrange(slot...slot, with: split(child))
        }
        node.recount()
    }

    private static func split(_ node: Node) -> [Node] {
        if node.isLeaf {
            let half = node.heights.count / 2
            return [Node(heights: Array(node.heights[..<half]), measured: Array(node.measured[..<half])),
                    Node(heights: Array(node.heights[half...]), measured: Array(node.measured[half...]))]
        }
        let half = node.children.count / 2
        return [Node(children: Array(node.children[..<half])), Node(children: Array(node.children[half...]))]
    }
}
