// Package rbnf interprets CLDR's rule-based number formats (RBNF), the
// rules ICU's RuleBasedNumberFormat reads, and embeds CLDR's spellout and
// ordinal rules for every language CLDR covers.
//
//	rs, err := rbnf.ForLocale("ru")
//	if err != nil { ... }
//	s, _ := rs.Format("%spellout-cardinal-feminine", 2)   // "две"
//	o, _ := rs.Format("%spellout-ordinal-masculine", 21)  // "двадцать первый"
//
// # Rules
//
// A rule set ("%spellout-cardinal", or "%%private" for helpers other sets
// call) is a list of rules "descriptor: body;". The descriptor is a base
// value ("20", "1,000"), optionally with a radix ("100/1000") or ">" marks
// lowering the exponent, or one of "-x" (negative numbers), "x.x" (numbers
// with a fraction), "0.x" (between 0 and 1), "x.0", "Inf", "NaN". A number
// takes the rule with the largest base value not above it. Its divisor is
// the largest power of the radix not above the base value. The body is
// text with substitutions:
//
//	←← or <<   the number divided by the divisor (the integer part in x.x)
//	→→ or >>   the remainder (the absolute value in -x; the fraction,
//	           digit by digit, in x.x); →→→ formats it with the rule before
//	           this one
//	==         the same number
//	←%set←     any of these with another rule set, or a decimal pattern
//	           such as =#,##0=
//	[text]     left out when the remainder is 0 (in x.x: when the integer
//	           part is 0); [a|b] writes b instead
//	$(cardinal,one{…}other{…})$   the plural form of the quotient, by the
//	           locale's CLDR plural rules ($(ordinal,…)$ for ordinal ones)
//
// [Parse] reads both ICU's ASCII tokens and the arrows of CLDR's JSON.
//
// # Data
//
// The embedded rules come from the cldr-rbnf npm package (see
// [DataVersion]), regenerated with go generate (rbnfgen). They are parsed
// per locale on first use by [ForLocale]; [Index] lists the locales and
// their rule sets without parsing anything. The data is © Unicode, Inc.,
// under the Unicode License v3 (see NOTICE at the repository root).
package rbnf
