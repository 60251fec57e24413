package segment

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWordGapRules checks the boundaries found where no stop and no line
// break end a unit (e-mail headers, signatures, tables, chat), and the
// places the same rules must leave alone.
func TestWordGapRules(t *testing.T) {
	tests := []struct {
		name, lang, in string
		want           []string
	}{
		// Date-time stamps of mail headers.
		{"stamp", "en", "Ann Lee 06/02/2001 10:53 AM Please send the file.",
			[]string{"Ann Lee", "06/02/2001 10:53 AM", "Please send the file."}},
		{"stamp after address", "en", "ann.lee@example.org 2001-06-02 10:53 Can you call me?",
			[]string{"ann.lee@example.org", "2001-06-02 10:53", "Can you call me?"}},
		{"stamp in prose", "en", "The meeting is on 06/02/2001 10:53 AM in room 4.",
			[]string{"The meeting is on 06/02/2001 10:53 AM in room 4."}},
		{"stamp after a preposition", "en", "On 06/02/2001 10:53 AM The server crashed.",
			[]string{"On 06/02/2001 10:53 AM The server crashed."}},
		{"stamp opening a paragraph", "en", "Hello.\n\n06/02/2001 10:53 AM Please call.",
			[]string{"Hello.", "06/02/2001 10:53 AM", "Please call."}},
		// A code or phone number ending a signature line, then "I".
		{"code then I", "en", "Ann Lee Legal Unit 713/555-0101 AB1234 I can take the call.",
			[]string{"Ann Lee Legal Unit 713/555-0101 AB1234", "I can take the call."}},
		{"range then I", "en", "From 1990-1995 I lived in Rome.",
			[]string{"From 1990-1995 I lived in Rome."}},
		{"number then I", "en", "At 10 I left the house.",
			[]string{"At 10 I left the house."}},
		// Addresses.
		{"address then capital", "en", "Contact: jane@example.org Tomorrow we meet.",
			[]string{"Contact: jane@example.org", "Tomorrow we meet."}},
		{"address in prose", "en", "Mail jane@example.org today or call Bob.",
			[]string{"Mail jane@example.org today or call Bob."}},
		{"mailto annotation", "en", "Ann Lee (mailto:ann@example.org) Owner of the shop",
			[]string{"Ann Lee (mailto:ann@example.org) Owner of the shop"}},
		{"german nouns", "de", "Schreiben Sie an info@example.de Briefe sind willkommen.",
			[]string{"Schreiben Sie an info@example.de Briefe sind willkommen."}},
		// Rules and banners.
		{"rule", "en", "Totals follow ---------- Net sales rose",
			[]string{"Totals follow", "----------", "Net sales rose"}},
		{"banner", "en", "see you soon -----= Posted via Example News =----- Next item here",
			[]string{"see you soon", "-----= Posted via Example News =-----", "Next item here"}},
		{"signature delimiter", "en", "Great work.\n\n-- Posted by Ann",
			[]string{"Great work.", "--", "Posted by Ann"}},
		{"dash in prose", "en", "Mix it and -- voila -- you have cake.",
			[]string{"Mix it and -- voila -- you have cake."}},
		// Emoticons and chat tags.
		{"emoticon after stop", "en", "The cake was great! :) We will come back.",
			[]string{"The cake was great! :)", "We will come back."}},
		{"emoticon at end", "en", "It was fine. :)",
			[]string{"It was fine. :)"}},
		{"emoticon without stop", "en", "we loved it :D The staff were kind",
			[]string{"we loved it :D", "The staff were kind"}},
		{"chat tag", "en", "we ate at the diner lol The fries were cold",
			[]string{"we ate at the diner lol", "The fries were cold"}},
		// A URL alone after a colon.
		{"colon url", "en", "Try the shop: http://shop.example.com/ The prices are low.",
			[]string{"Try the shop:", "http://shop.example.com/", "The prices are low."}},
		{"colon url with stop", "en", "The site is: https://example.com/a.html. Please check it out.",
			[]string{"The site is: https://example.com/a.html.", "Please check it out."}},
		// Header labels.
		{"sent by", "en", "Mark Jones Sent by: Ann Lee",
			[]string{"Mark Jones", "Sent by: Ann Lee"}},
		// Sign-offs and salutations.
		{"sign-off comma", "en", "See you Monday.\n\nThanks, Dawn",
			[]string{"See you Monday.", "Thanks,", "Dawn"}},
		{"sign-off dash", "en", "Let me know. Thanks - Davis",
			[]string{"Let me know.", "Thanks -", "Davis"}},
		{"sign-off two words", "en", "That is all.\n\nBest regards, Jeff",
			[]string{"That is all.", "Best regards,", "Jeff"}},
		{"thanks and name", "en", "Call me. Thanks Elizabeth 36349",
			[]string{"Call me.", "Thanks", "Elizabeth 36349"}},
		{"thanks sentence", "en", "Good job. Thanks Don.",
			[]string{"Good job.", "Thanks Don."}},
		{"thanks clause", "en", "Good job.\n\nThanks, I will call you.",
			[]string{"Good job.", "Thanks, I will call you."}},
		{"best as adjective", "en", "Best pizza in town and cheap",
			[]string{"Best pizza in town and cheap"}},
		{"lower-case thanks", "en", "Highly recommend. thanks Rich",
			[]string{"Highly recommend.", "thanks Rich"}},
		{"salutation", "en", "Louise, There are two options.",
			[]string{"Louise,", "There are two options."}},
		{"greeting and name", "en", "Hi Sara, I just wanted to ask.",
			[]string{"Hi Sara,", "I just wanted to ask."}},
		{"greeting colon", "en", "Hi David: Thought you might like this.",
			[]string{"Hi David:", "Thought you might like this."}},
		{"salutation needs a clause", "en", "Tracy, Do we agree on this?",
			[]string{"Tracy, Do we agree on this?"}},
		{"starter before comma", "en", "Today, Khanzir may be alone.",
			[]string{"Today, Khanzir may be alone."}},
		// A clause opener with a capital after a lower-case word.
		{"lost stop", "en", "just make a mold from that They sell kits in most shops",
			[]string{"just make a mold from that", "They sell kits in most shops"}},
		{"after a number", "en", "Totals $22,750 Please let us know.",
			[]string{"Totals $22,750", "Please let us know."}},
		{"after a source", "en", "It ships next year (Example News) It looks good for them.",
			[]string{"It ships next year (Example News)", "It looks good for them."}},
		{"parenthesised opener", "en", "He teaches science (He previously worked for 5 years as an engineer) at the local university.",
			[]string{"He teaches science (He previously worked for 5 years as an engineer) at the local university."}},
		{"title case", "en", "We saw Back To The Future again",
			[]string{"We saw Back To The Future again"}},
		{"list marker", "en", "1.) This is a list item.",
			[]string{"1.) This is a list item."}},
		// Attachments and tables.
		{"attachments", "en", "- Report.doc - Budget.xls",
			[]string{"- Report.doc", "- Budget.xls"}},
		{"table rows", "en", "AB101 BOOK 5 $ 10 AB102 BOOK 6 $ 12 AB103 BOOK 7 $ 14",
			[]string{"AB101 BOOK 5 $ 10", "AB102 BOOK 6 $ 12", "AB103 BOOK 7 $ 14"}},
		{"two codes are no table", "en", "Flight 12 BA202 left and flight 14 BA203 landed.",
			[]string{"Flight 12 BA202 left and flight 14 BA203 landed."}},
		// Web-text stops before a lower-case word.
		{"repeated exclamation", "en", "we won!!! next game is soon",
			[]string{"we won!!!", "next game is soon"}},
		{"single exclamation", "en", "and then, alas! the door was shut.",
			[]string{"and then, alas! the door was shut."}},
		{"spaced stop", "en", "the staff was friendly . and fast too",
			[]string{"the staff was friendly .", "and fast too"}},
		{"spaced stop after capital", "en", "How we got an A. Mathematics . dot times.",
			[]string{"How we got an A. Mathematics . dot times."}},
		{"missing space before I", "en", "Should I ask around?I've got friends there.",
			[]string{"Should I ask around?", "I've got friends there."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Sentences(context.Background(), tt.in, Options{Language: tt.lang})
			if err != nil {
				t.Fatalf("Sentences(%q) error: %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Sentences(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestArabicComma checks the Arabic comma rule: the comma (U+060C) ends a
// unit in Arabic, except before a word that is itself followed by a comma
// (an enumeration); not in Persian or Urdu, not without a following space,
// and not at a threshold above its score.
func TestArabicComma(t *testing.T) {
	tests := []struct {
		name, lang, in string
		th             float64
		want           []string
	}{
		{"clause", "ar", "ذهبت إلى السوق، واشتريت الخبز", DefaultThreshold,
			[]string{"ذهبت إلى السوق،", "واشتريت الخبز"}},
		{"enumeration", "ar", "اشتريت التفاح، والموز، ثم عدت إلى البيت", DefaultThreshold,
			[]string{"اشتريت التفاح، والموز،", "ثم عدت إلى البيت"}},
		{"guessed language", "", "ذهبت إلى السوق، واشتريت الخبز. ثم عدت.", DefaultThreshold,
			[]string{"ذهبت إلى السوق،", "واشتريت الخبز.", "ثم عدت."}},
		{"no space", "ar", "الرقم 3،5 صحيح", DefaultThreshold,
			[]string{"الرقم 3،5 صحيح"}},
		{"high threshold", "ar", "ذهبت إلى السوق، واشتريت الخبز. ثم عدت.", 0.6,
			[]string{"ذهبت إلى السوق، واشتريت الخبز.", "ثم عدت."}},
		{"persian", "fa", "من به بازار رفتم، و نان خریدم", DefaultThreshold,
			[]string{"من به بازار رفتم، و نان خریدم"}},
		{"urdu", "ur", "میں بازار گیا، اور روٹی خریدی", DefaultThreshold,
			[]string{"میں بازار گیا، اور روٹی خریدی"}},
		{"quoted", "ar", "قال «ذهبت إلى السوق، واشتريت الخبز» ثم سكت", DefaultThreshold,
			[]string{"قال «ذهبت إلى السوق، واشتريت الخبز» ثم سكت"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Sentences(context.Background(), tt.in, Options{Language: tt.lang, Threshold: Float(tt.th)})
			if err != nil {
				t.Fatalf("Sentences(%q) error: %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Sentences(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestDateStamp checks the date-time stamp parser on its own.
func TestDateStamp(t *testing.T) {
	tests := []struct {
		in   string
		want int // end of the stamp, or -1 for none
	}{
		{"06/02/2001 10:53 AM Hi", 19},
		{"06/02/2001 10:53 Hi", 16},
		{"2001-06-02 10:53:07 x", 19},
		{"6/2/01 9:05 pm", 14},
		{"06/02/2001 at 10:53", -1},
		{"06/02-2001 10:53", -1},
		{"12345/1/1 10:53", -1},
		{"06/02/2001 10:5", -1},
		{"06/02/2001 10:53x", -1},
		{"06/02/2001", -1},
	}
	for _, tt := range tests {
		end, ok := dateStamp(tt.in, 0)
		if !ok {
			end = -1
		}
		if end != tt.want {
			t.Errorf("dateStamp(%q) = %d; want %d", tt.in, end, tt.want)
		}
	}
}
