/// Reading GitHub-flavoured Markdown into TextReel's documents: import this module and the
/// engine comes with it.
@_exported import TextReel
