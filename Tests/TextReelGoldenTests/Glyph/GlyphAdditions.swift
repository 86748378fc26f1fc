import Foundation
import TextReel

// ChimeHQ/Glyph's TextKit 2 helpers (Sources/Glyph/NSTextLayoutFragment+Additions.swift,
// NSTextLayoutManager+Additions.swift and the provider half of NSTextRange+NSRange.swift, BSD-3-Clause),
// ported by renaming: `NSTextLineFragment` → `TextLineFragment`, `NSTextLayoutFragment` →
// `TextLayoutFragment`, `NSTextLayoutManager` → `TextLayoutManager`, `NSTextElementProvider` →
// `TextElementProvider`, `NSTextLocation` → `TextLocation`, `NSTextRange` → `TextRange`. Two
// changes the porting guide explains: the provider's `offset(from:to:)` and `location(_:offsetBy:)`
// are not optional requirements (`?` and the `?? 0` / `?? NSNotFound` fallbacks dropped), and
// `TextRange` is a struct (`convenience` dropped).
// The `#if os(...)` and `@available` lines go, as do `UTF16TextLocation` and the provider-less
// conversions (an `NSTextLocation` class of its own; TextReel's locations are values).

// MARK: NSTextLayoutFragment+Additions.swift

extension TextLineFragment {
	/// span has to be within this fragment's coordinate system
	func rangeOfCharacters(intersecting span: Range<CGFloat>) -> NSRange? {
		// even an empty fragment will respond to locationForCharacter(at: 0)
		
		let length = max(characterRange.length, 1)

		var start: Int?

		for index in 0..<length {
			let point = locationForCharacter(at: index)

			// we might need to back up unless we happen to be exactly on the boundary
			if span.lowerBound < point.x {
				start = max(index - 1, 0)
				break
			}

			if span.lowerBound == point.x {
				start = index
				break
			}
		}

		guard let start else { return nil }
		
		// continuing to look here for an empty fragment doens't make sense
		if characterRange.length == 0 {
			return NSRange(start..<start)
		}

		var end: Int?

		for index in (start..<length).reversed() {
			let point = locationForCharacter(at: index)

			if span.upperBound >= point.x {
				end = min(index + 1, length)
				break
			}
		}

		guard let end else { return nil }

		return NSRange(start..<end)
	}
}

extension TextLayoutFragment {
	/// Enumerate the line fragments making out the layout fragment.
	///
	/// > Note: Reverse enumeration is more expensive.
	///
	/// - Parameter provider: used to translate ranges.
	/// - Parameter reverse: perform enumeration in reverse, defaults to false.
	/// - Parameter block: invoked per line fragment with the fragment itself, its bounding rect, its range in the text, and its layout fragment-relative index offset for use with the `locationForCharacter(at:)` API.
	public func enumerateLineFragments(with provider: TextElementProvider, reverse: Bool = false, block: (TextLineFragment, CGRect, NSRange, Int) -> Bool) {
		let origin = layoutFragmentFrame.origin
		let location = provider.offset(from: provider.documentRange.location, to: rangeInElement.location)

		// check to ensure our shift will always be valid
		precondition(location >= 0)
		precondition(location != NSNotFound)

		let fragments = reverse ? textLineFragments.reversed() : textLineFragments
		var offset = 0

		for textLineFragment in fragments {
			let bounds = textLineFragment.typographicBounds.offsetBy(dx: origin.x, dy: origin.y)
			let range = NSRange(
				location: textLineFragment.characterRange.location + location,
				length: textLineFragment.characterRange.length
			)

			if block(textLineFragment, bounds, range, offset) == false {
				return
			}

			offset += textLineFragment.characterRange.length
		}
	}

	/// Enumerate the line fragments making out the layout fragment.
	///
	/// > Note: Reverse enumeration is more expensive.
	///
	/// - Parameter range: restrict the enumeration to line fragments within this range.
	/// - Parameter provider: used to translate ranges.
	/// - Parameter reverse: perform enumeration in reverse, defaults to false.
	/// - Parameter block: invoked per line fragment with the fragment itself, its bounding rect, its range in the text, and its layout fragment-relative index offset for use with the `locationForCharacter(at:)` API.
	public func enumerateLineFragments(
		in range: NSRange,
		with provider: TextElementProvider,
		reverse: Bool = false,
		block: (TextLineFragment, CGRect, NSRange, Int) -> Bool
	) {
		enumerateLineFragments(with: provider, reverse: reverse) { lineFragment, frame, elementRange, offset in
			// this enumeration is unconditional, but some line fragments might not be within our range

			if reverse {

			} else {
				if elementRange.upperBound <= range.lowerBound {
					return true
				}

				if elementRange.lowerBound > range.upperBound {
					return true
				}
			}

			return block(lineFragment, frame, elementRange, offset)
		}
	}

	func enumerateLineFragments(
		with provider: TextElementProvider,
		intersecting rect: CGRect,
		block: (TextLineFragment, CGRect, NSRange) -> Bool
	) {
		let origin = layoutFragmentFrame.origin
		let location = provider.offset(from: provider.documentRange.location, to: rangeInElement.location)

		// check to ensure our shift will always be valid
		precondition(location >= 0)
		precondition(location != NSNotFound)

		var locationOffset = location

		for textLineFragment in textLineFragments {
			// we have to shift to compute overlap, and then shift back to compute the span
			let bounds = textLineFragment.typographicBounds.offsetBy(dx: origin.x, dy: origin.y)
			let overlap = bounds.intersection(rect).offsetBy(dx: -origin.x, dy: -origin.y)
			let span: Range<CGFloat> = overlap.minX..<overlap.maxX

			// the locationOffset has to be computed even if we do not overlap
			let offset = locationOffset
			defer {
				locationOffset += textLineFragment.characterRange.length
			}

			guard let localRange = textLineFragment.rangeOfCharacters(intersecting: span) else { continue }

			let range = NSRange(
				location: localRange.location + offset,
				length: localRange.length
			)

			if block(textLineFragment, bounds, range) == false {
				return
			}
		}
	}
}

// MARK: NSTextLayoutManager+Additions.swift

extension TextLayoutManager {
	public func enumerateLineFragments(for rect: CGRect, strictIntersection: Bool = true, options: TextLayoutFragment.EnumerationOptions = [], block: (CGRect, NSRange, inout Bool) -> Void) {
		guard let textContentManager else { return }

		// if this is nil, our optmizations will have no effect
		let viewportRange = textViewportLayoutController.viewportRange ?? documentRange
		let viewportBounds = textViewportLayoutController.viewportBounds
		let reversed = options.contains(.reverse)

		// we're going to start at a document limit, which is definitely correct but suboptimal

		var location: TextLocation

		if reversed {
			location = documentRange.endLocation

			if rect.maxY <= viewportBounds.maxY {
				location = viewportRange.endLocation
			}

			if rect.maxY <= viewportBounds.minY {
				location = viewportRange.location
			}
		} else {
			location = documentRange.location

			if rect.minY >= viewportBounds.minY {
				location = viewportRange.location
			}

			if rect.minY >= viewportBounds.maxY {
				location = viewportRange.endLocation
			}
		}

		enumerateTextLayoutFragments(from: location, options: options, using: { fragment in
			let frame = fragment.layoutFragmentFrame

			if frame.intersects(rect) == false {
				// if we don't intersect, perhaps we just haven't reached window yet?
				if reversed {
					return frame.minY < rect.minY
				} else {
					return frame.maxY < rect.maxY
				}
			}

			var keepGoing: Bool = true

			if strictIntersection {
				fragment.enumerateLineFragments(with: textContentManager, intersecting: rect) { _, lineFrame, elementRange in
					block(lineFrame, elementRange, &keepGoing)

					return keepGoing
				}
			} else {
				fragment.enumerateLineFragments(with: textContentManager) { _, lineFrame, elementRange, _ in
					block(lineFrame, elementRange, &keepGoing)

					return keepGoing
				}
			}

			return keepGoing
		})
	}

	private func enumerateTextLineFragments(
		in range: NSRange,
		options: TextLayoutFragment.EnumerationOptions = [],
		block: (TextLayoutFragment, TextLineFragment, CGRect, NSRange, Int) -> Bool
	) {
		guard
			let textContentManager,
			let textRange = TextRange(range, provider: textContentManager)
		else { return }


		let reverse = options.contains(.reverse)
		let location = reverse ? textRange.endLocation : textRange.location
		let endLocation = reverse ? textRange.location : textRange.endLocation
		let endComparsion = reverse ? ComparisonResult.orderedDescending : ComparisonResult.orderedAscending

		var keepGoing = true

		enumerateTextLayoutFragments(from: location, options: options) { fragment in
			let fragmentRange = fragment.rangeInElement

			fragment.enumerateLineFragments(
				in: range,
				with: textContentManager,
				reverse: reverse
			) { lineFragment, frame, elementRange, offset in
				keepGoing = block(fragment, lineFragment, frame, elementRange, offset)

				return keepGoing
			}

			return keepGoing && fragmentRange.location.compare(endLocation) == endComparsion
		}

		guard keepGoing else { return }
		
		// There are a number of situations where the above code will miss a fragment.
		//
		// - forward, at the end of the content
		// - reverse, at the beginning of *non-empty* content
		//
		// Interestingly, reverse with empty content will actually enumerate the extra line in that case.

		let limit = reverse ? documentRange.location : documentRange.endLocation
		let atLimit = textContentManager.offset(from: limit, to: location) == 0

		if atLimit == false { return }
		if reverse && documentRange.isEmpty { return }

		if reverse {
			guard let prevLoc = textContentManager.location(textRange.location, offsetBy: 1) else {
				assertionFailure("this location should always exist")
				return
			}

			let range = NSRange(location: 0, length: 1)

			enumerateTextLayoutFragments(from: prevLoc, options: options) { fragment in
				fragment.enumerateLineFragments(
					in: range,
					with: textContentManager,
					reverse: reverse
				) { lineFragment, frame, elementRange, offset in
					_ = block(fragment, lineFragment, frame, elementRange, offset)

					return false
				}

				return false
			}

			return
		}

		// This means we are iterating forward and are at the end of the document. It's kind of bizarre, but we can reliably get the last fragment, even in the extra line case, by enumerating in reverse from the end.

		enumerateTextLayoutFragments(from: documentRange.endLocation, options: options.union([.reverse])) { fragment in
			fragment.enumerateLineFragments(
				in: range,
				with: textContentManager,
				reverse: true
			) { lineFragment, frame, elementRange, offset in
				_ = block(fragment, lineFragment, frame, elementRange, offset)

				return false
			}

			return false
		}
	}

	/// Iterate over text line layout fragments.
	///
	/// This method handles a number of special-cases, particularly around locations at the very beginning and end of the content. These situations can be useful for dealing with selection.
	public func enumerateLineFragments(
		in range: NSRange,
		options: TextLayoutFragment.EnumerationOptions = [],
		block: (CGRect, NSRange, inout Bool) -> Void
	) {
		var stop = false

		enumerateTextLineFragments(in: range, options: options) { fragment, lineFragment, frame, elementRange, offset in
			block(frame, elementRange, &stop)

			return stop == false
		}
	}

	/// Iterate over text line layout fragments starting at a specific location.
	///
	/// This is a convenience interface to `enumerateLineFragments(in:options:block:)`.
	public func enumerateLineFragments(
		from index: Int,
		options: TextLayoutFragment.EnumerationOptions = [],
		block: (CGRect, NSRange, inout Bool) -> Void
	) {
		guard let textContentManager else { return }

		let docRange = NSRange(documentRange, provider: textContentManager)

		guard docRange.location != NSNotFound else { return }

		let range: NSRange

		if options.contains(.reverse) {
			range = NSRange(docRange.lowerBound..<index)
		} else {
			range = NSRange(index..<docRange.upperBound)
		}

		enumerateTextLineFragments(in: range, options: options) { fragment, lineFragment, frame, fragmentRange, offset in
			var stop = false

			block(frame, fragmentRange, &stop)

			return !stop
		}
	}

	public func boundingRect(for range: NSRange) -> CGRect? {
		var rect: CGRect? = nil

		enumerateTextLineFragments(in: range, options: [.ensuresLayout, .ensuresExtraLineFragment]) { fragment, lineFragment, lineRect, lineRange, offset in
			// we need to limit the check to what overlaps `range`
			let startIndex = max(range.lowerBound, lineRange.lowerBound) - lineRange.lowerBound
			let endIndex = min(range.upperBound, lineRange.upperBound) - lineRange.lowerBound

			// these are relative to the lineRange's location within fragment
			let startPos = lineFragment.locationForCharacter(at: startIndex + offset)
			let endPos = lineFragment.locationForCharacter(at: endIndex + offset)
			let originPadding = fragment.layoutFragmentFrame.origin.x

			let bounds = CGRect(
				x: startPos.x + originPadding,
				y: lineRect.origin.y,
				width: (endPos.x - startPos.x),
				height: lineRect.height
			)

			rect = rect?.union(bounds) ?? bounds

			return true
		}

		return rect
	}
}

// MARK: NSTextRange+NSRange.swift (the conversion through a provider; its `NSRange(_:provider:)`,
// Rearrange's, is the Neon port's in this module)

extension TextRange {
	init?(_ range: NSRange, provider: TextElementProvider) {
		let docLocation = provider.documentRange.location

		guard let start = provider.location(docLocation, offsetBy: range.location) else {
			return nil
		}

		guard let end = provider.location(start, offsetBy: range.length) else {
			return nil
		}

		self.init(location: start, end: end)
	}
}
