import Foundation

/// The font files TextReel uses, and nothing else: a private fontconfig configuration built from
/// them, so the system's font configuration cannot change a pixel.
public struct FontSet: Sendable {
    /// Absolute paths of the font files.
    public let files: [String]

    /// The default fonts, from Debian packages: Noto Sans (Arabic, Hebrew, Devanagari, CJK and
    /// every other script, `scriptFonts`), DejaVu, Noto Color Emoji.
    public static let standard = FontSet(files: standardPackages.flatMap(\.files))

    /// The standard files by the Debian package that installs them: `make setup` and the `.deb`'s
    /// dependencies name these packages (`FONT_PACKAGES` in the Makefile), and a test checks each
    /// file against `dpkg`, so a font can never again come only from a package that something
    /// else happened to pull in (DejaVu's obliques are in fonts-dejavu-extra, not -core).
    public static let standardPackages: [(package: String, files: [String])] = [
        ("fonts-noto-core", [
            "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
            "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf",
            "/usr/share/fonts/truetype/noto/NotoSans-Italic.ttf",
            "/usr/share/fonts/truetype/noto/NotoSans-BoldItalic.ttf",
        ]),
        ("fonts-dejavu-core", [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        ]),
        ("fonts-dejavu-extra", [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSans-BoldOblique.ttf",
        ]),
        ("fonts-dejavu-core", [
            "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
        ]),
        ("fonts-dejavu-extra", [
            "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Oblique.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-BoldOblique.ttf",
        ]),
        ("fonts-noto-core", [
            "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
            "/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf",
            "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf",
            "/usr/share/fonts/truetype/noto/NotoSansHebrew-Bold.ttf",
            "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf",
            "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Bold.ttf",
        ]),
        ("fonts-noto-cjk", [
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        ]),
        // Colour emoji (CBDT bitmaps, drawn by Cairo): ZWJ sequences, flags, keycaps.
        ("fonts-noto-color-emoji", ["/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"]),
        ("fonts-noto-core", scriptFonts),
    ]

    /// The Debian package that installs a standard font file, for messages.
    public static func package(of file: String) -> String? {
        standardPackages.first { $0.files.contains(file) }?.package
    }

    /// Noto Sans for every other script Debian's fonts-noto-core covers (Thai, Bengali, Khmer,
    /// Sinhala, Gujarati, Tamil, Myanmar, Ethiopic … and historic scripts), with the bold face
    /// where there is one: fontconfig's fallback finds a run's script here when the body's
    /// families do not cover it, so no script draws as boxes. Pinned by file, like the rest; the
    /// fontconfig cache (see `FontCache`) keeps them from costing the first frame: a font is
    /// opened only when a run of its script is shaped.
    static let scriptFonts: [String] = scripts.map { "/usr/share/fonts/truetype/noto/NotoSans\($0)-Regular.ttf" }
        + boldScripts.map { "/usr/share/fonts/truetype/noto/NotoSans\($0)-Bold.ttf" }

    /// The scripts, by the name in the font's file (`NotoSans<name>-Regular.ttf`).
    static let scripts = [
        "Adlam", "AnatolianHieroglyphs", "Armenian", "Avestan", "Balinese", "Bamum", "BassaVah", "Batak",
        "Bengali", "Bhaiksuki", "Brahmi", "Buginese", "Buhid", "CanadianAboriginal", "Carian",
        "CaucasianAlbanian", "Chakma", "Cham", "Cherokee", "Coptic", "Cuneiform", "Cypriot", "Deseret",
        "Duployan", "EgyptianHieroglyphs", "Elbasan", "Elymaic", "Ethiopic", "Georgian", "Glagolitic",
        "Gothic", "Grantha", "Gujarati", "GunjalaGondi", "Gurmukhi", "HanifiRohingya", "Hanunoo", "Hatran",
        "ImperialAramaic", "IndicSiyaqNumbers", "InscriptionalPahlavi", "InscriptionalParthian", "Javanese",
        "Kaithi", "Kannada", "KayahLi", "Kharoshthi", "Khmer", "Khojki", "Khudawadi", "Lao", "Lepcha",
        "Limbu", "LinearA", "LinearB", "Lisu", "Lycian", "Lydian", "Mahajani", "Malayalam", "Mandaic",
        "Manichaean", "Marchen", "MasaramGondi", "Math", "MayanNumerals", "Medefaidrin", "MeeteiMayek",
        "MendeKikakui", "Meroitic", "Miao", "Modi", "Mongolian", "Mro", "Multani", "Myanmar", "NKo",
        "Nabataean", "NewTaiLue", "Newa", "Nushu", "Ogham", "OlChiki", "OldHungarian", "OldItalic",
        "OldNorthArabian", "OldPermic", "OldPersian", "OldSogdian", "OldSouthArabian", "OldTurkic", "Oriya",
        "Osage", "Osmanya", "PahawhHmong", "Palmyrene", "PauCinHau", "PhagsPa", "Phoenician",
        "PsalterPahlavi", "Rejang", "Runic", "Samaritan", "Saurashtra", "Sharada", "Shavian", "Siddham",
        "SignWriting", "Sinhala", "Sogdian", "SoraSompeng", "Soyombo", "Sundanese", "SylotiNagri", "Symbols",
        "Symbols2", "Syriac", "Tagalog", "Tagbanwa", "TaiLe", "TaiTham", "TaiViet", "Takri", "Tamil",
        "TamilSupplement", "Telugu", "Thaana", "Thai", "Tifinagh", "Tirhuta", "Ugaritic", "Vai", "Wancho",
        "WarangCiti", "Yi", "ZanabazarSquare",
    ]

    /// The scripts whose font has a bold face.
    static let boldScripts = [
        "Adlam", "Armenian", "Balinese", "Bamum", "Bengali", "CanadianAboriginal", "Cham", "Cherokee",
        "Ethiopic", "Georgian", "Gujarati", "Gurmukhi", "HanifiRohingya", "Javanese", "Kannada", "KayahLi",
        "Khmer", "Lao", "Lisu", "Malayalam", "Medefaidrin", "MeeteiMayek", "Myanmar", "OlChiki", "Oriya",
        "Sinhala", "SoraSompeng", "Sundanese", "Symbols", "TaiTham", "Tamil", "Telugu", "Thaana", "Thai",
    ]

    /// Generic family names map onto the project's fonts only. Order matters: "Sans" before sans-serif.
    static let configuration = """
    <?xml version="1.0"?>
    <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
    <fontconfig>
      <alias binding="same"><family>Sans</family><prefer><family>sans-serif</family></prefer></alias>
      <alias binding="same"><family>sans-serif</family><prefer><family>Noto Sans</family><family>DejaVu Sans</family></prefer></alias>
      <alias binding="same"><family>serif</family><prefer><family>DejaVu Serif</family></prefer></alias>
      <alias binding="same"><family>monospace</family><prefer><family>DejaVu Sans Mono</family></prefer></alias>
      <!-- Pango asks for the generic "emoji" family for emoji runs. -->
      <alias binding="same"><family>emoji</family><prefer><family>Noto Color Emoji</family></prefer></alias>
      <!-- Noto Color Emoji holds one bitmap strike (109 px): scale it to the size asked for, as
           fontconfig's own 10-scale-bitmap-fonts.conf does (our configuration includes none of
           the system's files, so the rule is repeated here). -->
      <match target="font">
        <test name="outline" compare="eq"><bool>false</bool></test>
        <edit name="pixelsizefixupfactor" mode="assign">
          <divide><name target="pattern">pixelsize</name><name target="font">pixelsize</name></divide>
        </edit>
      </match>
      <match target="font">
        <test name="outline" compare="eq"><bool>false</bool></test>
        <test name="pixelsizefixupfactor" compare="not_eq"><double>1.0</double></test>
        <edit name="matrix" mode="assign">
          <times><name>matrix</name>
            <matrix><name>pixelsizefixupfactor</name><double>0</double><double>0</double><name>pixelsizefixupfactor</name></matrix>
          </times>
        </edit>
        <edit name="size" mode="assign"><divide><name>size</name><name>pixelsizefixupfactor</name></divide></edit>
      </match>
      <!-- Emphasis in a script whose font has no italic (Chinese, Japanese, Arabic …) is slanted,
           as browsers slant it, by fontconfig's own 90-synthetic.conf rule (outline fonts only:
           colour emoji stay upright). -->
      <match target="font">
        <test name="slant"><const>roman</const></test>
        <test target="pattern" name="slant" compare="not_eq"><const>roman</const></test>
        <test name="outline" compare="eq"><bool>true</bool></test>
        <edit name="matrix" mode="assign">
          <times><name>matrix</name><matrix><double>1</double><double>0.2</double><double>0</double><double>1</double></matrix></times>
        </edit>
        <edit name="slant" mode="assign"><const>oblique</const></edit>
      </match>
    </fontconfig>
    """
}

extension FontSet {
    /// Frees the calling thread's fonts (its font systems and Pango's default font map) under
    /// the process-wide font lock. A thread of your own that rendered calls it before it ends.
    public static func releaseThreadFonts() { FontSystem.releaseThreadFonts() }
}

extension FontSet {
    /// The generic names the configuration maps onto the set's fonts.
    static let genericFamilies: Set<String> = ["sans", "sans-serif", "serif", "monospace", "emoji"]

    /// The families of a comma-separated list (a theme's `bodyFamilies`, CSS's `font-family`)
    /// that no file of the set provides, as written. Pango would silently draw their text in the
    /// next family of the list that exists, or in the configuration's default.
    public func missingFamilies(in list: String) -> [String] {
        let known = FontSystem.forCurrentThread(self).familyNames
        return Theme.families(list).filter { !known.contains($0.lowercased()) && !Self.genericFamilies.contains($0.lowercased()) }
    }
}

extension Theme {
    /// The names in a comma-separated family list, without quotes or spaces around them.
    static func families(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t\"'")) }.filter { !$0.isEmpty }
    }

    /// What the families a theme names come to in `fontSet`: a line for each list that names a
    /// family the set lacks, saying which family its text is drawn in instead.
    public func fontWarnings(in fontSet: FontSet = .standard) -> [String] {
        [("bodyFamilies", bodyFamilies), ("monoFamilies", monoFamilies)].compactMap { key, list in
            let missing = fontSet.missingFamilies(in: list)
            guard !missing.isEmpty else { return nil }
            let names = missing.map { "'\($0)'" }.joined(separator: ", ")
            let used = FontSystem.forCurrentThread(fontSet).family(drawing: list).map { "'\($0)'" } ?? "the set's default"
            return "\(key): the font set has no family \(names); its text is drawn in \(used)"
        }
    }
}

extension FontSet {
    /// Starts setting up this set's fonts on another thread, for the first thread that draws with
    /// them: a command that reads its document next overlaps the two (see `FontSystem.prepare`).
    public func prepare() { FontSystem.prepare(self) }
}
