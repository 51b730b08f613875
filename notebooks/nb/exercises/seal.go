package exercises

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// questionSalt makes the sealed answers of the questions differ from a
// plain hash of their letters.
const questionSalt = "perceptron-lessons/questions/v1"

// answerKey is the hash that marks letter as the right answer to question id.
func answerKey(id, letter string) string {
	h := sha256.Sum256([]byte(questionSalt + "\x00" + id + "\x00" + letter))
	return hex.EncodeToString(h[:])
}

// keystream returns n bytes derived from the question, the letter and the salt.
func keystream(id, letter string, n int) []byte {
	var out []byte
	for block := uint64(0); len(out) < n; block++ {
		var ctr [8]byte
		binary.BigEndian.PutUint64(ctr[:], block)
		h := sha256.Sum256([]byte(questionSalt + "\x01" + id + "\x00" + letter + "\x00" + string(ctr[:])))
		out = append(out, h[:]...)
	}
	return out[:n]
}

// seal hides the explanation text of letter for question id: what the
// sealed table holds, so that reading the package's source does not give
// the answers away (checking a letter does, as the question intends).
func seal(id, letter, text string) string {
	k := keystream(id, letter, len(text))
	b := []byte(text)
	for i := range b {
		b[i] ^= k[i]
	}
	return hex.EncodeToString(b)
}

// unseal is seal undone; "" if sealed is not hex.
func unseal(id, letter, sealed string) string {
	b, err := hex.DecodeString(sealed)
	if err != nil {
		return ""
	}
	k := keystream(id, letter, len(b))
	for i := range b {
		b[i] ^= k[i]
	}
	return string(b)
}
