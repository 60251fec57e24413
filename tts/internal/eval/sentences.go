package main

import (
	"strings"

	"github.com/sottolabs/sotto/internal/holdout"
)

// harvard are lists 1–10 of the Harvard sentences (IEEE Recommended
// Practice for Speech Quality Measurements, 1969; public domain), the usual
// intelligibility material: phonetically balanced and of low
// predictability, so a recognizer's language model helps little.
var harvard = []string{
	// List 1
	"The birch canoe slid on the smooth planks.",
	"Glue the sheet to the dark blue background.",
	"It's easy to tell the depth of a well.",
	"These days a chicken leg is a rare dish.",
	"Rice is often served in round bowls.",
	"The juice of lemons makes fine punch.",
	"The box was thrown beside the parked truck.",
	"The hogs were fed chopped corn and garbage.",
	"Four hours of steady work faced us.",
	"A large size in stockings is hard to sell.",
	// List 2
	"The boy was there when the sun rose.",
	"A rod is used to catch pink salmon.",
	"The source of the huge river is the clear spring.",
	"Kick the ball straight and follow through.",
	"Help the woman get back to her feet.",
	"A pot of tea helps to pass the evening.",
	"Smoky fires lack flame and heat.",
	"The soft cushion broke the man's fall.",
	"The salt breeze came across from the sea.",
	"The girl at the booth sold fifty bonds.",
	// List 3
	"The small pup gnawed a hole in the sock.",
	"The fish twisted and turned on the bent hook.",
	"Press the pants and sew a button on the vest.",
	"The swan dive was far short of perfect.",
	"The beauty of the view stunned the young boy.",
	"Two blue fish swam in the tank.",
	"Her purse was full of useless trash.",
	"The colt reared and threw the tall rider.",
	"It snowed, rained, and hailed the same morning.",
	"Read verse out loud for pleasure.",
	// List 4
	"Hoist the load to your left shoulder.",
	"Take the winding path to reach the lake.",
	"Note closely the size of the gas tank.",
	"Wipe the grease off his dirty face.",
	"Mend the coat before you go out.",
	"The wrist was badly strained and hung limp.",
	"The stray cat gave birth to kittens.",
	"The young girl gave no clear response.",
	"The meal was cooked before the bell rang.",
	"What joy there is in living.",
	// List 5
	"A king ruled the state in the early days.",
	"The ship was torn apart on the sharp reef.",
	"Sickness kept him home the third week.",
	"The wide road shimmered in the hot sun.",
	"The lazy cow lay in the cool grass.",
	"Lift the square stone over the fence.",
	"The rope will bind the seven books at once.",
	"Hop over the fence and plunge in.",
	"The friendly gang left the drug store.",
	"Mesh wire keeps chicks inside.",
	// List 6
	"The frosty air passed through the coat.",
	"The crooked maze puzzled the young girl.",
	"Adding fast leads to wrong sums.",
	"The show was a flop from the very start.",
	"A saw is a tool used for making boards.",
	"The wagon moved on well oiled wheels.",
	"March the soldiers past the next hill.",
	"A cup of sugar makes sweet fudge.",
	"Place a rosebud in her hair.",
	"Both lost their lives in the raging storm.",
	// List 7
	"We talked of the side show in the circus.",
	"Use a pencil to write the first draft.",
	"He ran half way to the hardware store.",
	"The clock struck to mark the third period.",
	"A small creek cut across the field.",
	"Cars and busses stalled in snow drifts.",
	"The set of china hit the floor with a crash.",
	"This is a grand season for hikes on the road.",
	"The dune rose from the edge of the water.",
	"Those words were the cue for the actor to leave.",
	// List 8
	"A yacht slid around the point into the bay.",
	"The two met while playing on the sand.",
	"The ink stain dried on the finished page.",
	"The walled town was seized without a fight.",
	"The lease said the rent was due every month.",
	"A tame squirrel makes a nice pet.",
	"The horn of the car woke the sleeping cop.",
	"The heart beat strongly and with firm strokes.",
	"The pearl was worn in a thin silver ring.",
	"The fruit peel was cut in thick slices.",
	// List 9
	"The navy attacked the big task force.",
	"See the cat glaring at the scared mouse.",
	"There are more than two factors here.",
	"The hat brim was wide and too droopy.",
	"The lawyer tried to lose his case.",
	"The grass curled around the fence post.",
	"Cut the pie into large parts.",
	"Men strive but seldom get rich.",
	"Always close the barn door tight.",
	"He lay prone and hardly moved a limb.",
	// List 10
	"The slush melted on the hard floor.",
	"A dog pulled the sleigh across the snow.",
	"The blinds were drawn to keep out the light.",
	"The team text was a good source of help.",
	"The sun shone brightly on the tin roof.",
	"Slide the tray across the glass top.",
	"The cloud moved in a stately way and was gone.",
	"Light maple sugar is made from sap.",
	"Bring your best compass to the third class.",
	"Rain dripped from the eaves all day long.",
}

// everyday are ordinary sentences of the kind an assistant speaks, many
// with numbers, money and times that go through Sotto's text normalization
// (written for this list; the first eight are the earlier list's).
var everyday = []string{
	"The meeting starts at 9:30 am on Monday.",
	"The ticket costs $12.50 at the door.",
	"Please call me back as soon as you get this message.",
	"Turn off the lights in the kitchen and lock the front door.",
	"We drove 25 miles to see the 3 little ducks.",
	"The quick brown fox jumps over the lazy dog.",
	"The weather will be sunny tomorrow with a high of seventy degrees.",
	"I would like to book a table for two people at eight o'clock.",
	"Your package will arrive on Thursday between noon and four.",
	"Can you pick up some milk and bread on your way home?",
	"The train to Boston leaves from platform 6 at 7:15.",
	"My phone battery died halfway through the call.",
	"Remember to water the plants while I am away.",
	"The doctor can see you next Tuesday at 10 am.",
	"We need about 3 pounds of potatoes for the soup.",
	"The store closes early on Sundays, so let's go now.",
	"Set an alarm for six thirty tomorrow morning.",
	"Traffic on the highway is slow because of an accident.",
	"She paid $45 for the concert tickets last week.",
	"How long does it take to walk to the station?",
	"The children are playing in the park after school.",
	"Our flight was delayed by two hours because of the storm.",
	"Please send me the report before the end of the day.",
	"I left my keys on the table next to the door.",
	"The library is open from nine in the morning until eight at night.",
	"Add two cups of flour and a pinch of salt.",
	"The bus was late again, so I took a taxi.",
	"He has lived in the same house for 20 years.",
	"Let me know if you need any help with the move.",
	"The new restaurant on Main Street serves great pizza.",
}

// item is one sentence of the list with its group and holdout part.
type item struct {
	text, group string
	sealed      bool
}

// items is the fixed list: every Harvard sentence, then every everyday one,
// each on the side of the split internal/holdout gives it.
func items() []item {
	var out []item
	for _, g := range []struct {
		name  string
		sents []string
	}{{"Harvard", harvard}, {"everyday", everyday}} {
		for _, s := range g.sents {
			out = append(out, item{text: s, group: g.name, sealed: holdout.Sealed(s)})
		}
	}
	return out
}

// paragraph is 200 words of ordinary prose (10 sentences) for the speed
// figures.
var paragraph = strings.Join([]string{
	"The old lighthouse stood at the end of the harbor, where the road gave way to sand and stone.",
	"Every evening the keeper climbed the narrow stairs, lit the lamp, and watched the boats come home.",
	"Some nights the fog rolled in so thick that the beam seemed to stop a few yards from the glass.",
	"On those nights he rang the bell by hand, once every minute, until the last boat was tied up safely.",
	"In the morning he wrote down the weather, the ships that had passed, and anything else worth remembering.",
	"His daughter walked out from the village twice a week with bread, letters, and news from the market.",
	"She liked to sit on the rocks below the tower and count the gulls while her father slept.",
	"When the winter storms came, the waves reached halfway up the wall and the whole tower seemed to shake.",
	"Yet the light never failed, and the fishermen said they could find their way home with their eyes closed.",
	"Years later, when the lamp was replaced by an automatic beacon, the keeper stayed on in the cottage beside it and climbed the stairs each evening to look out at the sea.",
}, " ")
