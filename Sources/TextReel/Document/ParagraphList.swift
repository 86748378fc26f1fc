import Foundation

/// A document's paragraphs as a collection, in document order. Reading one may parse the section
/// of the source that holds it (see `ParagraphStore`); the collection is a snapshot: later edits
/// of the document do not change it.
public struct ParagraphList: RandomAccessCollection, Equatable, Sendable {
    let store: ParagraphStore

    public var startIndex: Int { 0 }
    public var endIndex: Int { store.count }
    public subscript(index: Int) -> TextParagraph { store[index] }

    public static func == (a: ParagraphList, b: ParagraphList) -> Bool { a.elementsEqual(b) }
}
