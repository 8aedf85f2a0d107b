package stl

// languages maps the GSI's language code (EBU Tech 3264 appendix 3, two
// hex digits) to a BCP 47 tag. Codes 00 (unknown) and the reserved ones
// are absent. It is read-only.
var languages = map[string]string{
	"01": "sq", "02": "br", "03": "ca", "04": "hr", "05": "cy", "06": "cs", "07": "da", "08": "de",
	"09": "en", "0A": "es", "0B": "eo", "0C": "et", "0D": "eu", "0E": "fo", "0F": "fr", "10": "fy",
	"11": "ga", "12": "gd", "13": "gl", "14": "is", "15": "it", "16": "se", "17": "la", "18": "lv",
	"19": "lb", "1A": "lt", "1B": "hu", "1C": "mt", "1D": "nl", "1E": "no", "1F": "oc", "20": "pl",
	"21": "pt", "22": "ro", "23": "rm", "24": "sr", "25": "sk", "26": "sl", "27": "fi", "28": "sv",
	"29": "tr", "2A": "nl-BE", "2B": "wa",
	"45": "zu", "46": "vi", "47": "uz", "48": "ur", "49": "uk", "4A": "th", "4B": "te", "4C": "tt",
	"4D": "ta", "4E": "tg", "4F": "sw", "50": "srn", "51": "so", "52": "si", "53": "sn", "54": "sh",
	"55": "rue", "56": "ru", "57": "qu", "58": "ps", "59": "pa", "5A": "fa", "5B": "pap", "5C": "or",
	"5D": "ne", "5E": "nd", "5F": "mr", "60": "ro-MD", "61": "ms", "62": "mg", "63": "mk", "64": "lo",
	"65": "ko", "66": "km", "67": "kk", "68": "kn", "69": "ja", "6A": "id", "6B": "hi", "6C": "he",
	"6D": "ha", "6E": "gn", "6F": "gu", "70": "el", "71": "ka", "72": "ff", "73": "prs", "74": "cv",
	"75": "zh", "76": "my", "77": "bg", "78": "bn", "79": "be", "7A": "bm", "7B": "az", "7C": "as",
	"7D": "hy", "7E": "ar", "7F": "am",
}
