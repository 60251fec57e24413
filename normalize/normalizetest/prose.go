package normalizetest

// Prose is about 1 KB of mixed English prose with numbers, dates, money,
// times, measures and abbreviations, used by the throughput benchmarks.
const Prose = `On March 3, 2024 the board met at 10:30 a.m. in Room 214 and approved a budget of $4.5 million, ` +
	`up 12% from 2023. Dr. Smith said the 3rd quarter closed with revenue of $1,234,567.89 and 1/2 of it came ` +
	`from exports to 17 countries. The new plant, 250 km north of St. Louis, will use 3.2 MW of solar power ` +
	`and employ 1,200 people by the 1990s-style standards of the 21st century. Call 555-123-4567 or write to ` +
	`info@example.com before 5 pm on 12/31/2024. Shipping costs £12.50 per 20 kg parcel, and the 2nd batch of ` +
	`350 units leaves on July 4. The team ran 42.195 km in 3 hours 15 minutes, averaging 13 km/h, and spent ` +
	`€75 on coffee. See https://www.example.org/report-2024 for the full text of Chapter IV and Appendix B. ` +
	`The meeting ended at 6:45 pm; the next one is on the 15th of April at 9 a.m., and 3 of the 8 members will ` +
	`attend remotely from 2 offices. Temperatures reached 38°C while the index rose 2.5 points to 4,321.`
