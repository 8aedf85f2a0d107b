package stl

import (
	"fmt"
	"io"
	"strconv"

	"github.com/captionqa/captionqa/backend/caption"
)

// Parse reads an EBU STL file (EBU Tech 3264): its GSI block, then its TTI
// blocks (see the package documentation). A binary file has no lines: a
// diagnostic's line, and a cue's SourceLine, is the 1-based number of the
// TTI block it concerns (0 for the GSI block and the file as a whole).
// Problems become diagnostics: empty_input, invalid_document (a file
// shorter than its GSI block, or that ends inside a TTI block),
// invalid_timestamp, end_before_start, content_not_displayed (subtitles
// before the programme start), non_standard_syntax and
// unsupported_feature. The error is only ever an I/O error.
func Parse(r io.Reader) (*caption.Track, []caption.Diagnostic, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("stl: read: %w", err)
	}
	p := &parser{}
	t := p.parse(data)
	t.Version = caption.Version
	t.Source = &caption.Source{Format: Format}
	caption.Finish(t, &p.d)
	return t, p.d, nil
}

// parser holds the state of one parse.
type parser struct {
	d    caption.Diagnostics
	g    gsi
	rate frameRate
	tb   caption.TextBuilder
	// subs are the subtitles read, comments left out.
	subs                       []subtitle
	comments, userData, mosaic int
	undefined, undefinedAt     int
	// badTime counts time codes with a field out of range; the first is
	// reported, as d[badTimeAt].
	badTime, badTimeAt int
}

// subtitle is one subtitle: a TTI block and its extension blocks.
type subtitle struct {
	first tti // the first block's fields
	block int // the first block's number, 1-based
	tf    []byte
	text  decoded
	// start and end are its times in milliseconds on the file's clock.
	start, end int64
}

func (p *parser) parse(data []byte) *caption.Track {
	t := &caption.Track{Cues: []caption.Cue{}}
	if len(data) == 0 {
		p.d.Error(caption.CodeEmptyInput, 0, "the file is empty")
		return t
	}
	if len(data) < gsiSize {
		p.d.Error(caption.CodeInvalidDocument, 0, "the file is %d bytes, shorter than the %d-byte GSI block an EBU STL file starts with", len(data), gsiSize)
		return t
	}
	p.readGSI(data[:gsiSize])
	t.FrameRate = p.rate.fps()
	t.Language = languages[p.g.lc]
	body := data[gsiSize:]
	blocks := len(body) / ttiSize
	if extra := len(body) % ttiSize; extra != 0 {
		p.d.Error(caption.CodeInvalidDocument, blocks+1, "the file ends inside TTI block %d (%d of its %d bytes); the block was left out", blocks+1, extra, ttiSize)
	}
	if n, err := strconv.Atoi(p.g.tnb); err == nil && n != blocks {
		p.d.Warn(caption.CodeNonStandardSyntax, 0, "the GSI block gives the number of TTI blocks as %d; the file has %d", n, blocks)
	}
	p.readBlocks(body[:blocks*ttiSize])
	p.report()
	t.Cues = p.cues()
	return t
}

// readGSI reads the GSI block and reports what the reader cannot use.
func (p *parser) readGSI(b []byte) {
	p.g = parseGSI(b)
	if !Sniff(b) {
		p.d.Warn(caption.CodeInvalidDocument, 0,
			"the file does not start as an EBU STL GSI block does (a code page number, then a disk format code STLnn.01); it was read as one")
	}
	var ok bool
	if p.rate, ok = rateOf(p.g.dfc); !ok {
		p.d.Warn(caption.CodeNonStandardSyntax, 0, "the disk format code %q names no frame rate this reader knows; 25 fps was assumed", p.g.dfc)
	} else if p.g.dfc != "STL25.01" && p.g.dfc != "STL30.01" {
		p.d.Info(caption.CodeNonStandardSyntax, 0, "the disk format code %q is not one of EBU Tech 3264's (STL25.01, STL30.01); it was read at %s fps", p.g.dfc, p.g.dfc[3:5])
	}
	switch p.g.cct {
	case tableLatin, tableCyrillic, tableArabic, tableGreek, tableHebrew:
	default:
		p.d.Warn(caption.CodeNonStandardSyntax, 0, "the character code table %q is not one of 00 to 04; the text was read with table 00 (Latin)", p.g.cct)
		p.g.cct = tableLatin
	}
	switch p.g.dsc {
	case ' ', '0', '1', '2':
	default:
		p.d.Info(caption.CodeNonStandardSyntax, 0, "the display standard code %q is not one of blank, 0, 1 and 2; the file was read as open subtitles", string(p.g.dsc))
	}
	if p.g.tcs == '0' {
		p.d.Info(caption.CodeNonStandardSyntax, 0, "the GSI block marks the time codes as not intended for use; they were used, as nothing else times the subtitles")
	}
	if _, ok := p.tcpFrames(); !ok {
		p.d.Warn(caption.CodeInvalidTimestamp, 0, "the programme start time code %q is not HHMMSSFF; it was taken as 00:00:00:00", p.g.tcp)
	}
}

// tcpFrames returns the programme start as a frame count, ok false when
// the field is not a time code (it then counts as 0).
func (p *parser) tcpFrames() (int64, bool) {
	s := p.g.tcp
	if s == "" {
		return 0, true
	}
	if len(s) != 8 {
		return 0, false
	}
	var tc [4]int
	for i := range 4 {
		v, err := strconv.Atoi(s[2*i : 2*i+2])
		if err != nil || v < 0 {
			return 0, false
		}
		tc[i] = v
	}
	return p.rate.frames(tc), true
}

// readBlocks reads the TTI blocks into subtitles: a block and the
// extension blocks that continue its text (same subtitle number, up to
// extension block number FF). User data blocks and comments are left out.
func (p *parser) readBlocks(body []byte) {
	var cur *subtitle
	for k := 0; k*ttiSize < len(body); k++ {
		b := parseTTI(body[k*ttiSize : (k+1)*ttiSize])
		if b.ebn >= ebnReserved && b.ebn != ebnLast {
			p.userData++
			continue
		}
		if cur != nil && (b.sn != cur.first.sn || b.sgn != cur.first.sgn) {
			p.d.Warn(caption.CodeNonStandardSyntax, cur.block,
				"subtitle %d has extension blocks but no last one (extension block number FF); its text was read as it is", cur.first.sn)
			p.add(cur)
			cur = nil
		}
		if cur == nil {
			cur = &subtitle{first: b, block: k + 1}
		}
		cur.tf = append(cur.tf, b.tf...)
		if b.ebn == ebnLast {
			p.add(cur)
			cur = nil
		}
	}
	if cur != nil {
		p.d.Warn(caption.CodeNonStandardSyntax, cur.block,
			"subtitle %d has extension blocks but no last one (extension block number FF); its text was read as it is", cur.first.sn)
		p.add(cur)
	}
}

// add decodes a subtitle's text and times, unless it is a comment.
func (p *parser) add(s *subtitle) {
	if s.first.cf == commentMarker {
		p.comments++
		return
	}
	s.text = decodeText(s.tf, p.g.cct, &p.tb)
	if s.text.mosaic {
		p.mosaic++
	}
	if s.text.undefined > 0 {
		if p.undefined == 0 {
			p.undefinedAt = s.block
		}
		p.undefined += s.text.undefined
	}
	s.start, s.end = p.time(s.first.tci, s.block, "in"), p.time(s.first.tco, s.block, "out")
	p.subs = append(p.subs, *s)
}

// time returns a time code of block in milliseconds on the file's clock,
// reporting fields out of range (read anyway, as a count of frames).
func (p *parser) time(tc [4]int, block int, which string) int64 {
	if tc[1] > 59 || tc[2] > 59 || tc[3] >= p.rate.nominal {
		p.badTime++
		if p.badTime == 1 {
			p.badTimeAt = len(p.d)
			p.d.Warn(caption.CodeInvalidTimestamp, block, "time code %s %02d:%02d:%02d:%02d has a field out of range (frames 0-%d at %d fps); it was read as a count of frames",
				which, tc[0], tc[1], tc[2], tc[3], p.rate.nominal-1, p.rate.nominal)
		}
	}
	return p.rate.ms(p.rate.frames(tc))
}

// report adds the notes counted over the whole file.
func (p *parser) report() {
	groups := map[byte]bool{}
	for i := range p.subs {
		groups[p.subs[i].first.sgn] = true
	}
	if len(groups) > 1 {
		p.d.Info(caption.CodeNonStandardSyntax, 0, "the file has %d subtitle groups (SGN); they were read into one track", len(groups))
	}
	if p.comments > 0 {
		p.d.Info(caption.CodeNonStandardSyntax, 0, "%d comment %s (comment flag set) %s left out", p.comments, plural(p.comments, "subtitle", "subtitles"), plural(p.comments, "was", "were"))
	}
	if p.userData > 0 {
		p.d.Info(caption.CodeUnsupportedFeature, 0, "%d user data or reserved %s (extension block number F0-FE) %s left out", p.userData, plural(p.userData, "block", "blocks"), plural(p.userData, "was", "were"))
	}
	if p.mosaic > 0 {
		p.d.Info(caption.CodeUnsupportedFeature, 0, "%d %s teletext mosaic graphics codes, which were read as spaces", p.mosaic, plural(p.mosaic, "subtitle has", "subtitles have"))
	}
	if p.undefined > 0 {
		p.d.Warn(caption.CodeNonStandardSyntax, p.undefinedAt, "%d %s of subtitle text %s not in the %s character code table; %s as U+FFFD",
			p.undefined, plural(p.undefined, "byte", "bytes"), plural(p.undefined, "is", "are"), tableName(p.g.cct), plural(p.undefined, "it reads", "they read"))
	}
	if p.badTime > 1 {
		p.d[p.badTimeAt].Message += fmt.Sprintf(" (%d time codes in the file; the first is reported)", p.badTime)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
