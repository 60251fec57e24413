package normalize_test

import (
	"context"
	"testing"

	"github.com/sottolabs/sotto/normalize"
)

// TestPortugueseTelephoneTN covers the Brazilian layouts NeMo's Portuguese
// grammar reads: country and area codes, 7 to 11 digits in two blocks
// apart by a hyphen or a full stop, extensions, IPv4 addresses.
func TestPortugueseTelephoneTN(t *testing.T) {
	tests := []struct{ in, want string }{
		{"+55 11 3333-4444", "mais cinco cinco um um três três três três quatro quatro quatro quatro"},
		{"(11) 99999-8888", "um um nove nove nove nove nove oito oito oito oito"},
		{"ligue para 3333-4444", "ligue para três três três três quatro quatro quatro quatro"},
		{"555.1234", "cinco cinco cinco um dois três quatro"},
		{"11 3333-4444 ramal 12", "um um três três três três quatro quatro quatro quatro ramal um dois"},
		{"(11) 3333-4444 ext. 12", "um um três três três três quatro quatro quatro quatro extensão um dois"},
		{"192.168.1.1", "um nove dois ponto um seis oito ponto um ponto um"},
		// not telephone numbers
		{"3022110709", "três bilhões vinte e dois milhões cento e dez mil setecentos e nove"},
		{"2.500.000", "dois milhões e quinhentos mil"},
		{"300.400.500.600", "trezentos bilhões quatrocentos milhões quinhentos mil e seiscentos"},
	}
	for _, tt := range tests {
		res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: "pt", TopK: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Best(); got != tt.want {
			t.Errorf("Normalize(%q, pt) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

// TestPortugueseTimeITN covers NeMo's Portuguese clock times after "às",
// "à", "ao": hours and minutes with or without their nouns, "meia",
// minutes before an hour, noon and midnight.
func TestPortugueseTimeITN(t *testing.T) {
	tests := []struct{ in, want string }{
		{"às três horas e trinta minutos", "às 3:30"},
		{"às sete horas", "às 7:00"},
		{"à uma hora", "à 1:00"},
		{"às onze e um minuto", "às 11:01"},
		{"às quinze para as quatro", "às 3:45"},
		{"às dez pras duas", "às 1:50"},
		{"às quinze pra uma", "às 12:45"},
		{"às cinco pra meia noite", "às 23:55"},
		{"às dez e quinze da manhã", "às 10:15 da manhã"},
		// not clock times
		{"às duas da tarde", "às duas da tarde"},
		{"durante sete horas", "durante 7 h"},
		{"a casa", "a casa"},
	}
	for _, tt := range tests {
		res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: "pt", Mode: normalize.ITN, TopK: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Best(); got != tt.want {
			t.Errorf("Normalize(%q, pt itn) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
