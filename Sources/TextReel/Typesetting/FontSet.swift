import Foundation

/// The font files TextReel uses, and nothing else: a private fontconfig configuration built from
/// them, so the system's font configuration cannot change a pixel.
public struct FontSet: Sendable {
    /// Absolute paths of the font files (from Debian's fonts-dejavu-core, fonts-noto-core,
    /// fonts-noto-cjk, fonts-noto-color-emoji).
    public let files: [String]

    /// The default fonts, from Debian packages: Noto Sans (Arabic, Hebrew, Devanagari, CJK), DejaVu, Noto Color Emoji.
    public static let standard = FontSet(files: [
        "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf",
        "/usr/share/fonts/truetype/noto/NotoSans-Italic.ttf",
        "/usr/share/fonts/truetype/noto/NotoSans-BoldItalic.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-BoldOblique.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Oblique.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-BoldOblique.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansHebrew-Bold.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Bold.ttf",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        // Colour emoji (CBDT bitmaps, drawn by Cairo): ZWJ sequences, flags, keycaps.
        "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    ])

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
    </fontconfig>
    """
}

extension FontSet {
    /// Frees the calling thread's fonts (its font systems and Pango's default font map) under
    /// the process-wide font lock. A thread of your own that rendered calls it before it ends.
    public static func releaseThreadFonts() { FontSystem.releaseThreadFonts() }
}
