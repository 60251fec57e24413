package normalize_test

import (
	"context"
	"testing"
	"unicode/utf8"

	"github.com/sottolabs/sotto/normalize"
)

// TestEnglishGeneralRules covers English rules written for kinds of input
// rather than for one case: each kind has several inputs of its own (none
// taken from the shared suites) and a neighbouring input the rule must
// leave alone.
func TestEnglishGeneralRules(t *testing.T) {
	tests := []struct{ name, mode, in, want string }{
		// Spoken digit runs take the layout their length implies.
		{"phone number", "itn", "call five five five one two three four five six seven", "call 555-123-4567"},
		{"phone number after a country code", "itn", "four four two zero seven nine four six zero one two three", "44 207-946-0123"},
		{"card number in fours", "itn", "four one one one double one one one one one one one one one one one", "4111 1111 1111 1111"},
		{"card number four six five", "itn", "three seven eight two eight two two four six three one double zero zero five", "3782 822463 10005"},
		{"card number four six four", "itn", "three zero five six nine three zero nine double zero two five nine four", "3056 930900 2594"},
		{"card number after a prefix", "itn", "nine eight seven three zero five six nine three zero nine zero two five nine zero four", "987 3056 930902 5904"},
		{"social security number", "itn", "one two three four five six seven eight nine", "123-45-6789"},
		{"too short for a telephone", "itn", "one two three four five", "one two three four five"},
		// TN's telephone readings, with their commas, read back.
		{"phone read back", "itn", "call five five five, one two three, four five six seven", "call 555-123-4567"},
		{"phone with a country code read back", "itn", "plus one, five five five, one two three, four five six seven", "+1 555-123-4567"},
		{"toll-free read back", "itn", "one, eight hundred, five five five, one two one two", "1-800-555-1212"},
		{"social security number read back", "itn", "one two three, four five, six seven eight nine", "123-45-6789"},
		{"list of numbers is no phone", "itn", "twenty, thirty, forty, fifty, sixty", "20, 30, 40, 50, 60"},
		{"counted digits are no phone", "itn", "five, six, seven, eight, nine, ten, eleven", "five, six, seven, eight, nine, ten, eleven"},
		{"toll-free number", "itn", "call one eight hundred five five five one two one two now", "call 1-800-555-1212 now"},
		{"hundreds are no toll-free number", "itn", "eight hundred people", "800 people"},
		// Spoken addresses start where the spelling starts.
		{"word before a spelled address", "itn", "go to w w w dot example dot co dot uk", "go to www.example.co.uk"},
		{"preposition at before an address", "itn", "email me at john dot doe at gmail dot com", "email me at john.doe@gmail.com"},
		{"spelled top-level domain", "itn", "visit a b c dot com dot s m", "visit abc.com.sm"},
		// Day ranges in dates.
		{"month then day range", "tn", "January 5-7, 2020", "january fifth to seventh twenty twenty"},
		{"day range then month", "tn", "the 12-14 March meeting", "the twelfth to fourteenth of march meeting"},
		{"day range with suffixes and en dash", "tn", "5th–7th May 2021", "the fifth to seventh of may twenty twenty one"},
		{"falling day pair is no range", "tn", "May 5-3", "may fifth-three"},
		// Numbers below thirteen stay words in ITN, as in NeMo's grammar.
		{"twelve stays a word", "itn", "twelve apples", "twelve apples"},
		{"thirteen is written", "itn", "thirteen apples", "13 apples"},
		{"ten with a unit is written", "itn", "ten kilograms", "10 kg"},
		// Hyphenated compound numbers, as writers and recognizers spell them.
		{"hyphenated cardinal", "itn", "forty-two", "42"},
		{"hyphenated money", "itn", "twenty-five dollars", "$25"},
		{"hyphenated ordinal", "itn", "the twenty-first century", "the 21st century"},
		{"hyphenated year", "itn", "nineteen sixty-nine", "1969"},
		{"hyphenated minutes", "itn", "at five thirty-five p m", "at 05:35 p.m."},
		{"hyphenated words stay", "itn", "a well-known fact", "a well-known fact"},
		{"spoken day range", "itn", "january fifth to seventh twenty twenty", "january 5-7 2020"},
		{"spoken day range through", "itn", "march third through fifth", "march 3-5"},
		{"negative money back", "itn", "minus five dollars", "-$5"},
		{"signed fraction stays words as the unsigned one", "itn", "add minus three eighths", "add minus three eighths"},
		{"signed half stays words", "itn", "minus one half", "minus one half"},
		{"seconds after a signed number are the unit", "itn", "minus two seconds", "-2 s"},
		{"weekday range without periods", "tn", "open Mon-Fri", "open Monday to Friday"},
		{"month range", "tn", "Jan–Mar 2020", "january to march twenty twenty"},
		{"lower-case words are no month range", "tn", "may-june", "may-june"},
		{"lower-case words are no month range in text", "tn", "we met may-june", "we met may june"},
		// Spoken dates with the month "may" and with "the" before the day.
		{"day of may", "itn", "the second of may", "2 may"},
		{"may before an ordinal", "itn", "on may fifth twenty twenty", "on may 5 2020"},
		{"may the fourth", "itn", "may the fourth", "may 4"},
		{"may as a verb", "itn", "i may second that", "i may second that"},
		{"may before a cardinal", "itn", "you may one day", "you may one day"},
		{"month the ordinal", "itn", "june the fourth twenty twenty", "june 4 2020"},
		{"month the cardinal stays", "itn", "june the one", "june the one"},
		{"count range is no time", "itn", "he is a nine to five guy", "he is a nine to five guy"},
		{"minutes to the hour with a marker", "itn", "five minutes to two a m", "01:55 a.m."},
		// Time ranges: a dash between two times reads "to".
		{"time range with minutes", "tn", "open 2:30-3:30 pm", "open two thirty to three thirty PM"},
		{"time range with en dash", "tn", "2:30–3:30", "two thirty to three thirty"},
		{"spaced time range", "tn", "9 am - 5 pm daily", "nine AM to five PM daily"},
		{"bare hour before a marked time", "tn", "from 3-4pm today", "from three to four PM today"},
		{"time range with a zone", "tn", "10am-2pm EST", "ten AM to two PM EST"},
		{"counting range is no time", "tn", "3-4 people", "three to four people"},
		// The 24-hour clock.
		{"military time with a leading zero", "tn", "0800 hours", "oh eight hundred hours"},
		{"military time after at", "tn", "at 1630 hrs", "at sixteen thirty hours"},
		{"glued h", "tn", "at 1600h", "at sixteen hundred hours"},
		{"hours counted", "tn", "1200 hours of testing", "twelve hundred hours of testing"},
		{"spoken military time", "itn", "oh eight hundred hours", "08:00"},
		{"number cue glued to the number", "tn", "No.1", "number one"},
		// Addresses.
		{"letter glued to an apartment number", "tn", "Apt. 4B", "Apartment four B"},
		{"letter glued to a suite number", "tn", "Suite 12B", "Suite twelve B"},
		{"glued scale elsewhere", "tn", "5M views", "five million views"},
		{"dotted compass point", "tn", "4500 N. Michigan Ave., Chicago", "forty five hundred North Michigan Avenue, Chicago"},
		{"initial after a number is no compass point", "tn", "I scored 5 S. Then", "I scored five S. Then"},
		{"ordinal street", "tn", "lives on 5th St. now", "lives on fifth Street now"},
		{"street ending a sentence", "tn", "He lived on Elm St. It was cold.", "He lived on Elm Street. It was cold."},
		// Fractions.
		{"vulgar fraction glued to a whole number", "tn", "1½ cups", "one and a half cups"},
		{"fraction with a plural ordinal suffix", "tn", "2/3rds of it", "two thirds of it"},
		{"dotted thousands", "tn", "1.000.000 people", "one million people"},
		{"one dotted group stays a decimal", "tn", "1.000", "one point zero zero zero"},
		{"four dotted groups are an IP address", "tn", "192.168.100.200", "one nine two dot one six eight dot one zero zero dot two zero zero"},
		// Feet and inches written with primes.
		{"feet and inches with primes", "tn", "He is 6'2\" tall.", "He is six feet two inches tall."},
		{"feet and inches with prime signs", "tn", "5′ 10″", "five feet ten inches"},
		{"one foot one inch", "tn", "a 1'1\" gap", "a one foot one inch gap"},
		{"apostrophe alone is no foot", "tn", "the 90's", "the ninety's"},
		// Units: powers, rates, units beyond NeMo's table.
		{"superscript square", "tn", "5 yd²", "five square yards"},
		{"acceleration", "tn", "9.8 m/s²", "nine point eight meters per second squared"},
		{"rate over a table unit", "tn", "100 mg/dL", "one hundred milligrams per deciliter"},
		{"rate over litres", "tn", "5 mmol/L", "five millimoles per liter"},
		{"speed in feet", "tn", "10 ft/s", "ten feet per second"},
		{"pressure", "tn", "30 psi", "thirty pounds per square inch"},
		{"heart rate", "tn", "60 bpm", "sixty beats per minute"},
		{"binary prefix", "tn", "8 GiB", "eight gibibytes"},
		{"one-letter unit after a slash stays a letter", "tn", "3 cc/s", "three CC per S"},
		{"everyday new unit words stay words in ITN", "itn", "sixty beats per minute", "60 beats per minute"},
		{"technical new unit written back", "itn", "one hundred milligrams per deciliter", "100 mg/dL"},
		// Negative amounts of money.
		{"negative money", "tn", "a loss of -$5.2 million", "a loss of minus five point two million dollars"},
		{"negative money in brackets", "tn", "(-€3)", "(minus three euros)"},
		{"hyphen inside a code is no minus", "tn", "A-$5", "A-five dollars"},
		{"negative fraction", "tn", "add -3/8 to it", "add minus three eighths to it"},
		{"negative mixed number in brackets", "tn", "(-4 1/2)", "(minus four and a half)"},
		{"unicode minus before a fraction", "tn", "−2/5", "minus two fifths"},
		{"day with of before the month", "tn", "by the 21st of June", "by the twenty first of June"},
		{"day with of before a lower-case month", "tn", "the 3rd of march", "the third of march"},
		{"day with of keeps the year comma", "tn", "on the 9th of April, 1865, Grant", "on the ninth of April, eighteen sixty five, Grant"},
		{"day with of, month and year", "tn", "12th of Oct. 1999", "twelfth of october nineteen ninety nine"},
		{"of without a month is no date", "tn", "the 2nd of them", "the second of them"},
		// Measure ranges: spaced or en dash reads "to", a solid hyphen stays.
		{"spaced measure range", "tn", "5 kg - 10 kg", "five kilograms to ten kilograms"},
		{"en dash measure range", "tn", "10%–20%", "ten percent to twenty percent"},
		{"solid measure range keeps the hyphen", "tn", "5kg-6kg", "five kilograms-six kilograms"},
		// Abbreviations read only before a number.
		{"page", "tn", "see p. 5", "see page five"},
		{"page range", "tn", "pp. 5-10", "pages five to ten"},
		{"figure", "tn", "in Fig. 3 we", "in figure three we"},
		{"circa", "tn", "built c. 1500", "built circa fifteen hundred"},
		{"lower-case number", "tn", "no. 5", "number five"},
		{"no before a word stays", "tn", "I said no. Then", "I said no. Then"},
		{"initial before a number stays", "tn", "Thomas C. 1500", "Thomas C. fifteen hundred"},
		// Card numbers, powers, versions.
		{"card number in spaced groups", "tn", "card 4111 1111 1111 1111 ok", "card four one one one, one one one one, one one one one, one one one one ok"},
		{"card number four six five", "tn", "3782 822463 10005", "three seven eight two, eight two two four six three, one zero zero zero five"},
		{"run of years is no card", "tn", "in 2020 2021 2022 2023", "in twenty twenty twenty twenty one twenty twenty two twenty twenty three"},
		{"squared", "tn", "x^2", "x squared"},
		{"power of ten", "tn", "10^6 cells", "ten to the power of six cells"},
		{"unit with a caret power", "tn", "5 m^3", "five cubic meters"},
		{"version number", "tn", "Python 3.11.2", "Python three point eleven point two"},
		{"version after v", "tn", "v2.0.1", "v two point zero point one"},
		{"four parts are an IP address", "tn", "1.2.3.4", "one dot two dot three dot four"},
		{"dotted date is no version", "tn", "3.5.2020", "march fifth twenty twenty"},
		{"letter plural is no unit", "tn", "the 5 W's", "the five W's"},
		{"milliamp hours back", "itn", "four thousand milliamp hours", "4000 mAh"},
		// Addresses with any scheme, with or without a dot.
		{"scheme without a dot", "tn", "see http://localhost:8080/api now", "see HTTP colon slash slash localhost colon eight zero eight zero slash api now"},
		{"ftp scheme", "tn", "ftp://files.example.org/pub", "FTP colon slash slash files dot example dot org slash pub"},
		{"no scheme before the colon", "tn", "a://b", "a://b"},
		// Mathematical symbols.
		{"division sign", "tn", "12 ÷ 4 = 3", "twelve divided by four equals three"},
		{"comparison", "tn", "5 > 3", "five greater than three"},
		{"markup is no comparison", "tn", "<p>text</p>", "<p>text</p>"},
		{"at least", "tn", "x ≥ 5", "x greater than or equal to five"},
		{"plus or minus", "tn", "3 ± 0.5", "three plus or minus zero point five"},
		{"square root", "tn", "√4 = 2", "square root of four equals two"},
		{"superscript power", "tn", "10¹² cells", "ten to the power of twelve cells"},
		{"superscript square", "tn", "E=mc²", "E equals mc squared"},
		// Roman numerals after a name are small regnal numbers.
		{"regnal number", "tn", "Louis XIV", "Louis the fourteenth"},
		{"pope's number", "tn", "John XXIII", "John the twenty third"},
		{"no king after a letter", "tn", "12 V DC", "twelve volts DC"},
		{"king in capitals", "tn", "HENRY VII.", "HENRY the seventh."},
		{"no king in a place name", "tn", "Washington DC", "Washington DC"},
		// Round 4: sentences of running text.
		{"full month name keeps the sentence period", "tn", "The race is on Sunday, 14 July.", "The race is on Sunday, the fourteenth of july."},
		{"abbreviated month takes its period", "tn", "on 14 Sept. then", "on the fourteenth of september then"},
		{"compass letter before a street is no unit", "tn", "11 W 53rd St, New York", "eleven West fifty third Street, New York"},
		{"watts after a number elsewhere", "tn", "It is 40 W.", "It is forty watts."},
		{"state code ending a sentence after a city", "tn", "We moved to Austin, TX. Then", "We moved to Austin, Texas. Then"},
		{"state-like code after a word that is no place", "tn", "Thanks, OK.", "Thanks, OK."},
		{"codes in a list", "tn", "He has a BA, MA.", "He has a BA, MA."},
		{"code that is a word ends the text", "tn", "Thanks, OK", "Thanks, OK"},
		{"code that is a word before a comma", "tn", "Fine, IN, then out.", "Fine, IN, then out."},
		{"code that is a word after a place", "tn", "I moved to Tulsa, OK, in 2019.", "I moved to Tulsa, Oklahoma, in twenty nineteen."},
		{"code that is a word before a ZIP code", "tn", "Honolulu, HI 96813", "Honolulu, Hawaii nine six eight one three"},
		{"code that is no word ends the text", "tn", "Boston, MA", "Boston, Massachusetts"},
		{"p.m. period ends the sentence before a capital", "tn", "at 6 p.m. The doors opened", "at six PM. The doors opened"},
		{"p.m. before a time zone", "tn", "at 6 p.m. EST", "at six PM EST"},
		{"p.m. before a weekday", "tn", "at 6 p.m. Friday", "at six PM Friday"},
		{"compound hyphen at the start of a sentence", "tn", "Check-in is at 3 pm.", "Check in is at three PM."},
		{"hyphenated name kept", "tn", "Jean-Paul is here.", "Jean-Paul is here."},
		{"lone t ending the clause is tonnes", "tn", "It weighs 2.5 t.", "It weighs two point five tons."},
		{"lone t before a word stays", "tn", "a 5 t truck", "a five t truck"},
		{"lone t before of is tonnes", "tn", "37,000 t of oil", "thirty seven thousand tons of oil"},
		{"in before of is inches", "tn", "9 in of snow", "nine inches of snow"},
		{"in before a noun stays the preposition", "tn", "put 5 in the box", "put five in the box"},
		{"closing quote after a number", "tn", `He said "be there at 9" and left.`, `He said "be there at nine" and left.`},
		{"inch marks after numbers", "tn", `the 12" pipe and the 6" one`, "the twelve inches pipe and the six inches one"},
		{"unpaired quote after a number is inches", "tn", `"text 7" text ".`, `"text seven inches text ".`},
		{"consecutive years with a slash", "tn", "the 2024/25 budget", "the twenty twenty four to twenty five budget"},
		{"four-digit consecutive years with a slash", "tn", "the 1999/2000 season", "the nineteen ninety nine to two thousand season"},
		{"non-consecutive years with a slash are a fraction", "tn", "2024/26", "two thousand twenty four twenty sixths"},
		{"range after a written reference word", "tn", "See pages 45–47.", "See pages forty five to forty seven."},
		{"range after a plural reference word", "tn", "chapters 3-5", "chapters three to five"},
		{"a.m. period dropped before a comma", "tn", "At 6:30 a.m., the alarm rang.", "At six thirty AM, the alarm rang."},
		{"a.m. period kept before a question mark", "tn", "4A.M.?", "four AM.?"},
		{"may second after a preposition of time is a date", "itn", "she flew to denver on may second", "she flew to denver on may 2"},
		{"may second as a verb", "itn", "i may second that", "i may second that"},
		{"en dash range before a percent sign", "tn", "a 10–15% rise", "a ten to fifteen percent rise"},
		{"spaced dash range before a unit", "tn", "5 - 10 kg", "five to ten kilograms"},
		{"en dash range before a spaced unit", "tn", "a 5–10 kg load", "a five to ten kilograms load"},
		{"solid hyphen between two percents stays", "tn", "10%-15%", "ten percent-fifteen percent"},
		{"clitic s is no spelled letter", "itn", "it's three a m and i'm awake", "it's 03:00 a.m. and i'm awake"},
		{"spelled s before a number", "itn", "the s three bucket", "the S3 bucket"},
		{"two measures joined by x", "tn", "It measures 30 cm x 20 cm.", "It measures thirty centimeters by twenty centimeters."},
		{"bare numbers joined by x stay", "tn", "2 x 3", "two x three"},
		{"unit after per", "tn", "Population density is 420 per km².", "Population density is four hundred twenty per square kilometer."},
		{"per before a word", "tn", "per cent and per se", "per cent and per se"},
		// The year comma, decided by counting the visible cases per context.
		{"day-first year comma dropped in running text", "tn", "He sailed on the 15th November, 1577.", "He sailed on the fifteenth of november fifteen seventy seven."},
		{"day-first year comma kept in a lone date", "tn", "16 July, 1943", "the sixteenth of july, nineteen forty three"},
		{"month-first year comma dropped in running text", "tn", "born May 12, 1981 in Lima", "born may twelfth nineteen eighty one in Lima"},
		{"month-first year comma dropped in a lone date", "tn", "June 9, 1872", "june ninth eighteen seventy two"},
		// Scientific notation (round 5).
		{"e notation with a signed exponent", "tn", "a charge of 1.6e-19 C", "a charge of one point six times ten to the power of minus nineteen C"},
		{"e notation with a decimal mantissa", "tn", "6.02E23 atoms", "six point zero two times ten to the power of twenty three atoms"},
		{"e notation with a plus sign", "tn", "2.5e+8", "two point five times ten to the power of eight"},
		{"e notation with a zero exponent", "tn", "1.0e00", "one point zero times ten to the power of zero"},
		{"unsigned integer e code is no exponent", "tn", "the 3e5 model", "the three e five model"},
		{"times ten to a power", "tn", "6.02×10^23", "six point zero two times ten to the power of twenty three"},
		{"times ten to a superscript power", "tn", "3.0 × 10⁸ m/s", "three point zero times ten to the power of eight m/s"},
		{"negative caret power", "tn", "10^-6", "ten to the power of minus six"},
		{"negative superscript power", "tn", "1.2×10⁻³", "one point two times ten to the power of minus three"},
		{"glued multiplication sign between integers stays", "tn", "a 2×4 board", "a two × four board"},
		// Roman numerals before a counted noun of [roman_ordinal_cues].
		{"roman century", "tn", "The church dates from the XII century.", "The church dates from the twelfth century."},
		{"roman century hyphenated", "tn", "XIX-century art", "nineteenth-century art"},
		{"roman dynasty", "tn", "the XVIII dynasty", "the eighteenth dynasty"},
		{"one-letter numeral after the", "tn", "the V century BC", "the fifth century BC"},
		{"pronoun before century", "tn", "I century", "I century"},
		{"abbreviation before century", "tn", "CD century", "CD century"},
		// Round 5: seconds with a marker, spaced international numbers.
		{"h:mm:ss with am", "tn", "5:30:15 am", "five hours thirty minutes and fifteen seconds AM"},
		{"h:mm:ss with p.m. before a comma", "tn", "1:02:03 p.m., then", "one hour two minutes and three seconds PM, then"},
		{"spaced international number", "tn", "+49 30 1234567", "plus four nine, three zero, one two three four five six seven"},
		{"spaced international number in pairs", "tn", "+33 1 42 68 53 00", "plus three three, one, four two, six eight, five three, zero zero"},
		{"plus and numbers without a country code", "tn", "+3 100 200", "plus three one hundred two hundred"},
		{"short national part is no phone", "tn", "+1 2 3", "plus one two three"},
		{"iso date-time in utc", "tn", "started 2023-09-12T08:45:00Z today", "started september twelfth twenty twenty three at eight forty five UTC today"},
		{"iso date-time with an offset", "tn", "2024-01-05T14:00:00+05:30", "january fifth twenty twenty four at fourteen o'clock UTC plus five thirty"},
		{"iso date-time with seconds", "tn", "2024-01-05T23:59:59.123Z", "january fifth twenty twenty four at twenty three hours fifty nine minutes and fifty nine seconds UTC"},
		{"continental amount before a currency sign", "tn", "The ticket was 12,50 € in Paris.", "The ticket was twelve euros fifty cents in Paris."},
		{"continental amount with groups before a code", "tn", "1.234,56 EUR", "one thousand two hundred and thirty four euros fifty six cents"},
		{"english groups before a code", "tn", "1,234 EUR", "one thousand two hundred and thirty four euros"},
		{"scientific notation before a unit", "tn", "9.46e12 km", "nine point four six times ten to the power of twelve kilometers"},
		{"lakh after a currency amount", "tn", "He won ₹5 lakh.", "He won five lakh rupees."},
		{"crore after a number", "tn", "2 crore people", "two crore people"},
		{"sub-cent amount keeps its zero", "tn", "$0.001", "zero point zero zero one dollars"},
		{"sub-cent amount without a zero", "tn", "$.001", "point zero zero one dollars"},
		{"continental decimal comma before a percent sign", "tn", "The tax is 19,6 % in some regions.", "The tax is nineteen point six percent in some regions."},
		{"continental decimal comma before a unit", "tn", "2,5 kg", "two point five kilograms"},
		{"comma between listed numbers stays", "tn", "scores 12,50 and 60", "scores twelve, fifty and sixty"},
		{"kilonewtons in SI spelling", "tn", "The beam carries 5 kN.", "The beam carries five kilonewtons."},
		{"kn stays (also the knot)", "tn", "10 kn", "ten kn"},
		{"title before a name", "itn", "doctor smith is here", "dr. smith is here"},
		{"title word after an article", "itn", "the doctor said so", "the doctor said so"},
		{"title word ending the text", "itn", "she is a doctor", "she is a doctor"},
		{"saint before a name", "itn", "saint paul", "st. paul"},
		{"unit spelled letter by letter", "itn", "the disk spins at seven thousand two hundred r p m", "the disk spins at 7200 rpm"},
		{"mixed-case unit spelled", "itn", "it used four k w h", "it used 4 kWh"},
		{"spelled letters without a number stay", "itn", "i am at a b c", "i am at a b c"},
		{"eleven digits after the trunk prefix 1", "itn", "one eight eight eight five five five zero one four two", "1-888-555-0142"},
		{"eleven digits after another prefix", "itn", "four four two zero seven nine four six zero one two", "4 420-794-6012"},
		// Round 6: running text.
		{"inch abbreviation before a comma is the unit", "tn", "it grew 9 in., then stopped", "it grew nine inches., then stopped"},
		{"inch abbreviation before a lower-case word", "tn", "it grew 9 in. overnight", "it grew nine inches. overnight"},
		{"in before its object stays the preposition", "tn", "put 9 in the box", "put nine in the box"},
		{"lap time with thousandths", "tn", "a lap of 1:31.448", "a lap of one minute thirty one point four four eight seconds"},
		{"race time with hours and tenths", "tn", "in 3:04:51.2", "in three hours four minutes and fifty one point two seconds"},
		{"seconds with tenths under a minute", "tn", "in 0:47.9", "in forty seven point nine seconds"},
		{"clock time before a period stays a time", "tn", "at 10:45. Then", "at ten forty five. Then"},
		{"doubled section sign reads the plural", "tn", "under §§ 101–103 of the code", "under sections one hundred one to one hundred three of the code"},
		{"paragraph sign", "tn", "see ¶ 7", "see paragraph seven"},
		{"doubled paragraph sign", "tn", "see ¶¶ 7-9", "see paragraphs seven to nine"},
		{"doubled ampersand stays single", "tn", "A && B", "A and and B"},
		{"dotted markers joined by an en dash", "tn", "open 8 a.m.–4 p.m. daily", "open eight AM to four PM daily"},
		{"dotted markers joined by a hyphen", "tn", "open 8 a.m.-4 p.m. daily", "open eight AM to four PM daily"},
		{"service number after call", "tn", "call 999 now", "call nine nine nine now"},
		{"any number after dial", "tn", "dial 0 for help", "dial zero for help"},
		{"a count after call stays a count", "tn", "call 25 people", "call twenty five people"},
		{"a longer number after call is a phone", "tn", "call 911-555-0100", "call nine one one, five five five, zero one zero zero"},
		{"service number said after call", "itn", "call nine nine nine now", "call 999 now"},
		{"digits said after dial", "itn", "dial zero for help", "dial 0 for help"},
		{"two digits after call stay words", "itn", "call one two", "call one two"},
		{"house number before a street", "itn", "we live at four fifteen maple avenue", "we live at 415 maple avenue"},
		{"clock time before other words", "itn", "we met at four fifteen near the park", "we met at 04:15 near the park"},
		{"24-hour time after at", "itn", "the bus leaves at sixteen oh five", "the bus leaves at 16:05"},
		{"a year after in stays a year", "itn", "built in sixteen oh five", "built in 1605"},
		{"hours 21 to 23 in two words", "itn", "boarding at twenty two forty", "boarding at 22:40"},
		{"street type as a verb stays", "itn", "they drive to work", "they drive to work"},
		{"web address label in two words", "itn", "see w w w dot green energy dot org", "see www.greenenergy.org"},
		{"spaced national number after a trunk zero", "tn", "ring 0113 496 0123 today", "ring zero one one three, four nine six, zero one two three today"},
		{"mobile number in two groups", "tn", "text 07700 900456", "text zero seven seven zero zero, nine zero zero four five six"},
		{"spaced small numbers stay counts", "tn", "0 5 10 20", "zero five ten twenty"},
		{"number cue names one code", "tn", "see No. 12-3", "see number twelve - three"},
		{"numbers cue keeps its range", "tn", "see nos. 12-14", "see numbers twelve to fourteen"},
		{"map scale with a grouped number", "tn", "a 1:25,000 map", "a one to twenty five thousand map"},
		{"scale of one to three digits", "tn", "a 1:250 model", "a one to two hundred fifty model"},
		{"verse stays a verse", "tn", "John 3:16", "John three sixteen"},
		{"version with a two-digit part", "itn", "update to three point twelve point one", "update to 3.12.1"},
		{"version of one-word parts", "itn", "one point twenty nine point four", "1.29.4"},
		{"one point and a two-digit part stays words", "itn", "three point twelve", "three point twelve"},
		{"rate after a counted noun", "tn", "up to 500 calls/day", "up to five hundred calls per day"},
		{"slash between words stays a slash", "tn", "the car/day split", "the car slash day split"},
		{"money range with an en dash and a glued scale", "tn", "worth $3–4bn", "worth three to four billion dollars"},
		{"money range with an en dash", "tn", "costs $20–30", "costs twenty to thirty dollars"},
		{"money range with a glued thousand", "tn", "pays $40-50k", "pays forty to fifty thousand dollars"},
		{"range of amounts with the currency once", "itn", "it costs twenty to thirty dollars", "it costs $20-30"},
		{"range of scaled amounts", "itn", "a loss of eight to nine billion euros", "a loss of €8-9 billion"},
		{"a folded scale keeps the range in words", "itn", "ten to fifteen thousand dollars", "ten to $15000"},
		{"f-number", "tn", "shot at f/2.8", "shot at f two point eight"},
		{"f-number in brackets", "tn", "(f/11)", "(f eleven)"},
		{"a word ending in f before a slash", "tn", "if/3", "if/three"},
		{"rate with two denominators", "tn", "give 2 mg/kg/day", "give two milligrams per kilogram per day"},
		{"rate per a number of units", "tn", "uses 5.1 L/100 km", "uses five point one liters per one hundred kilometers"},
		{"rate unit word after a slash", "tn", "costs 40 L/person", "costs forty liters per person"},
		{"one-letter notn unit before a rate", "tn", "a stiffness of 120 N/m", "a stiffness of one hundred and twenty newtons per meter"},
		{"one-letter notn unit alone stays", "tn", "a force of 3 N", "a force of three N"},
		{"spelled one-letter denominator", "tn", "flows at 3 cc/s", "flows at three CC per S"},
		{"bit rate units", "tn", "a 100 Mbit/s link", "a one hundred megabits per second link"},
		{"bit units keep NeMo's ITN writing", "itn", "ten megabits", "10 mb"},
		{"resistance with a prefix", "tn", "a 47 kΩ resistor", "a forty seven kilohms resistor"},
		// A currency name that is also a unit of weight ("pounds") is the
		// weight before "of" without a scale and after a verb of weight.
		{"pounds of a food are weight", "itn", "add three pounds of flour", "add 3 lb of flour"},
		{"pounds of a counted noun are weight", "itn", "two hundred pounds of steel", "200 lb of steel"},
		{"one pound of", "itn", "one pound of butter", "1 lb of butter"},
		{"weight after a verb of weight", "itn", "it weighs five pounds", "it weighs 5 lb"},
		{"weight after lost", "itn", "she lost twelve pounds in a month", "she lost 12 lb in a month"},
		{"scaled pounds of stay money", "itn", "three billion pounds of funding", "£3 billion of funding"},
		{"paid pounds stay money", "itn", "he paid three pounds for it", "he paid £3 for it"},
		{"pounds and pence stay money", "itn", "three pounds fifty", "£3.50"},
		{"dollars of stay money", "itn", "twenty dollars of gas", "$20 of gas"},
		// "St." before a saint's name ([saint_names]) is saint even after a
		// capitalized word, unless a house number makes it an address.
		{"saint's name after a capitalized word", "tn", "the Glen St. Mary Church", "the Glen saint Mary Church"},
		{"saint's name after a surname-like word", "tn", "Miss Ermengarde St. John, who", "Miss Ermengarde saint John, who"},
		{"saint without a period", "tn", "the Glen St Mary Church", "the Glen saint Mary Church"},
		{"street before a new sentence", "tn", "She lives on Elm St. It is quiet.", "She lives on Elm Street. It is quiet."},
		{"house number keeps the street", "tn", "at 12 Main St. Patrick's Day", "at twelve Main Street. Patrick's Day"},
		// Dotted state abbreviations after a place name and a comma.
		{"state before a lower-case word", "tn", "arrived from Norfolk, Va. in May", "arrived from Norfolk, Virginia in May"},
		{"state before a comma", "tn", "born in Louisville, Ky., in May", "born in Louisville, Kentucky, in May"},
		{"dotted letters of a state", "tn", "I live in Albany, N.Y.", "I live in Albany, New York."},
		{"state ending a sentence", "tn", "He moved to Jackson, Miss. He stayed.", "He moved to Jackson, Mississippi. He stayed."},
		{"title after an interjection stays", "tn", "Thanks, Miss. Brown", "Thanks, Miss. Brown"},
		{"no place name before the comma", "tn", "yes, Pa. said so", "yes, Pa. said so"},
		// A spaced year range with a two-digit end reads as the solid one.
		{"spaced year range", "tn", "In 1893 - 94 occurred", "In eighteen ninety three to ninety four occurred"},
		{"solid year range", "tn", "In 1893-94 occurred", "In eighteen ninety three to ninety four occurred"},
		{"spaced range ending lower is no year range", "tn", "pages 1893 - 12", "pages one thousand eight hundred ninety three to twelve"},
		// A bare number over a unit with a power, as densities are written.
		{"density per square kilometer", "tn", "a density of 4,507.4/km² here", "a density of four thousand five hundred and seven point four per square kilometer here"},
		{"power written as a digit", "tn", "about 280/km2 in all", "about two hundred and eighty per square kilometer in all"},
		{"per cubic meter", "tn", "3/m³ of gas", "three per cubic meter of gas"},
		{"unit without a power still", "tn", "12/kg.", "twelve per kilogram."},
		// Older print spaces the capitals of a.m. and p.m.
		{"spaced P. M. after a dotted time", "tn", "It was 10.40 P. M.", "It was ten forty PM"},
		{"spaced A. M. before a word", "tn", "had arisen at 4.30 A. M. to read", "had arisen at four thirty AM to read"},
		{"spaced marker ending a sentence", "tn", "at 6 P. M. The doors", "at six PM. The doors"},
		{"solid marker still", "tn", "at 4.40 P.M. we left", "at four forty PM we left"},
		// A regnal numeral's own period goes before a possessive only.
		{"regnal period before a possessive", "tn", "upon Louis XIV.'s ears", "upon Louis the fourteenth's ears"},
		{"regnal period before a curly possessive", "tn", "King Charles I.’s head", "King Charles the first's head"},
		{"regnal period before a lower-case word stays", "tn", "Louis XIV. was king", "Louis the fourteenth. was king"},
		{"regnal period ending a sentence stays", "tn", "Louis XIV. The king", "Louis the fourteenth. The king"},
		// A day written with "of" is read as written, without an added article.
		{"ordinal day of a month after an article", "tn", "a 10th of August is in the air", "a tenth of August is in the air"},
		{"second day of a pair", "tn", "between the 16th and 17th of July, a", "between the sixteenth and seventeenth of July, a"},
		{"ordinal day of a month alone", "tn", "letters, 20th of December, that I", "letters, twentieth of December, that I"},
		{"day before a month still takes the article", "tn", "on 14 July 2020", "on the fourteenth of july twenty twenty"},
		// A spelled scheme starts the host: a two-word label before a dot
		// joins there as after "w w w dot"; words of the path do not.
		{"two-word host after a spelled scheme", "itn", "see h t t p s colon slash slash my site dot org", "see https://mysite.org"},
		{"two-word host then a path", "itn", "h t t p colon slash slash city parks dot org slash events", "http://cityparks.org/events"},
		{"words after a path stay words", "itn", "h t t p colon slash slash example dot com slash path and more", "http://example.com/path and more"},
	}
	runEnglishCases(t, tests)
}

// TestEnglishGeneralRulesTruncated runs every input of
// TestEnglishGeneralRules cut at each byte boundary and glued to its
// neighbours, in both modes, and checks the result invariants: the rules
// above look ahead and behind several tokens, and a cut ("6'2", "Apt. 4",
// "1-800-") must neither panic nor break the spans.
func TestEnglishGeneralRulesTruncated(t *testing.T) {
	ins := []string{
		"open 2:30-3:30 pm", "9 am - 5 pm daily", "from 3-4pm today", "He is 6'2\" tall.", "5′ 10″",
		"9.8 m/s²", "100 mg/dL", "a loss of -$5.2 million", "(-€3)", "5 kg - 10 kg", "10%–20%", "pp. 5-10",
		"card 4111 1111 1111 1111 ok", "x^2", "5 m^3", "Python 3.11.2", "1.000.000 people", "192.168.100.200",
		"January 5-7, 2020", "5th–7th May 2021", "http://localhost:8080/api", "at 1630 hrs", "0800 hours", "No.1",
		"Apt. 4B", "4500 N. Michigan Ave., Chicago", "lives on 5th St. now", "1½ cups", "2/3rds of it",
		"call one eight hundred five five five one two one two now", "go to w w w dot example dot co dot uk",
		"email me at john dot doe at gmail dot com", "the twenty-first century", "may the fourth",
		"oh eight hundred hours", "five minutes to two a m", "12 ÷ 4 = 3", "10¹² cells", "E=mc²", "3 ± 0.5",
		"on 14 July. Then", "11 W 53rd St", "Austin, TX. Then", "at 6 p.m. The", "Check-in is", "2.5 t.",
		`said "at 9" and`, "the 2024/25 budget", "pages 45–47", "on the 15th November, 1577.", "16 July, 1943", "a 10–15% rise", "5 - 10 kg", "30 cm x 20 cm", "420 per km²", "it's three a m",
		"1.6e-19 C", "2.5e+8", "6.02×10^23", "3.0 × 10⁸ m/s", "10^-6", "1.2×10⁻³", "1.0e00", "the XII century.", "XIX-century art", "5:30:15 am", "+49 30 1234567", "+33 1 42 68 53 00", "2023-09-12T08:45:00Z", "2024-01-05T14:00:00+05:30", "12,50 €", "19,6 %", "2,5 kg", "9.46e12 km", "₹5 lakh",
		"9 in., then", "a lap of 1:31.448", "in 3:04:51.2", "§§ 101–103", "¶¶ 7-9", "8 a.m.–4 p.m.", "call 999 now", "dial 0 for", "call nine nine nine", "2 mg/kg/day", "5.1 L/100 km", "0113 496 0123", "07700 900456", "No. 12-3", "1:25,000", "1:250", "$3–4bn", "$40-50k", "twenty to thirty dollars", "eight to nine billion euros", "f/2.8", "(f/11)", "500 calls/day", "at four fifteen maple avenue", "at sixteen oh five", "at twenty two forty", "w w w dot green energy dot org", "120 N/m", "100 Mbit/s",
	}
	for x, in := range ins {
		next := ins[(x+1)%len(ins)]
		for cut := 0; cut <= len(in); cut++ {
			if !utf8.ValidString(in[:cut]) {
				continue
			}
			for _, text := range []string{in[:cut], in[:cut] + next, next + in[:cut]} {
				for _, mode := range []normalize.Mode{normalize.TN, normalize.ITN} {
					opts := normalize.Options{Language: "en", Mode: mode, TopK: 2}
					res, err := normalize.Normalize(context.Background(), text, opts)
					if err != nil {
						if text == "" {
							continue
						}
						t.Fatalf("Normalize(%s %q): %v", mode, text, err)
					}
					checkInvariants(t, text, opts, res)
				}
			}
		}
	}
}
