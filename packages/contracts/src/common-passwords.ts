/**
 * The guessable-password rule, shared by the identity service (which refuses them) and the web's
 * live checklist (which says so before the user submits). Its own entry point,
 * `@assistente/contracts/common-passwords`, so pages load the list only when they need it.
 *
 * Passwords that show up at the top of every public breach corpus (written from memory of those
 * lists, plus Brazilian Portuguese and Spanish favourites for this product's users). Lowercase;
 * `guessable` also folds case, undoes common leetspeak and strips trailing digits/symbols
 * before looking a password up here, so "P@ssw0rd2024!" counts as "password".
 */
const RAW = `
123456 123456789 12345678 1234567 1234567890 12345 1234 123123 111111 000000 654321 666666 121212
112233 123321 7777777 777777 987654321 987654 147258369 159753 123654 555555 222222 333333 444444
888888 999999 11111111 00000000 131313 101010 789456 456789 147258 159357 258456 741852963 123456a
1234qwer 12341234 1234abcd 696969 112112 123qwe 1qaz2wsx zaq12wsx 1q2w3e 1q2w3e4r 1q2w3e4r5t 1qazxsw2
qwerty qwerty123 qwerty1 qwertyuiop qwertyui qwert qwer1234 asdfgh asdfghjkl asdf1234 zxcvbn zxcvbnm
azerty azertyuiop qazwsx qazwsxedc 1qaz2wsx3edc zaq1zaq1 zaq1xsw2 asdasd asd123 qweasd qweasdzxc
qwe123 abc123 abcd1234 abc12345 abcdef abcdefg abcdefgh a123456 a12345 aa123456 aaaaaa aaa111
123abc 1a2b3c 1a2b3c4d q1w2e3r4 q1w2e3 123456q 123456z qq123456 a1b2c3 a1b2c3d4 1234abc 12qwaszx
password password1 password12 password123 passw0rd passwd pass1234 pass123 pass12345 passpass
password! mypassword secret secret123 letmein letmein123 welcome welcome1 welcome123 iloveyou
iloveyou1 iloveyou2 loveyou lovely loveme love123 lover admin admin123 admin1234 administrator
root toor root123 changeme changeit default guest guest123 test test123 test1234 testing tester
demo demo123 user user123 username login login123 access master master123 monkey monkey123 dragon
dragon123 football football1 baseball basketball soccer hockey golf tennis princess princess1 sunshine
shadow superman batman spiderman ironman pokemon naruto goku starwars startrek whatever freedom ninja
mustang trustno1 jordan jordan23 michael michelle charlie donald hello hello123 hellokitty flower
flowers hottie zxcvbnm123 computer internet google facebook youtube twitter instagram linkedin yahoo
hotmail gmail outlook microsoft windows apple samsung iphone android nintendo playstation xbox
minecraft fortnite roblox steam gamer gaming killer hunter ranger tigger tiger lion eagle falcon
phoenix dolphin butterfly cookie chocolate banana orange apple123 cheese pepper ginger summer winter
spring autumn monday friday sunday january december august september october november march april
soccer1 football12 baseball1 yankees lakers cowboys steelers packers eagles redsox chelsea arsenal
liverpool manchester manutd barcelona realmadrid juventus milan inter bayern dortmund psg celtic
rangers madrid london paris berlin newyork chicago boston dallas texas florida california canada
america usa123 england germany france italia italy spain espana españa mexico argentina colombia
brasil brazil portugal peru chile venezuela ecuador uruguay paraguay bolivia cuba
ashley jessica amanda jennifer nicole daniel matthew andrew joshua anthony robert thomas william
james john david richard joseph christopher charles george edward steven kevin brian jason justin
brandon ryan eric adam jacob ethan tyler austin aaron kyle zachary nathan samuel benjamin alexander
alex sam max jack harry oliver henry charlie1 sophie emily emma olivia ava isabella mia abigail
madison elizabeth chloe grace hannah lauren samantha sarah rachel rebecca megan melissa stephanie
heather amber crystal tiffany brittany courtney danielle kimberly victoria natalie alexis andrea
angela maria mariana marina martina lucia sofia valentina camila daniela gabriela fernanda juliana
carolina catalina isabel paula laura ana anna alice beatriz bruna larissa leticia leticia123 vitoria
julia giovanna manuela helena luiza luisa clara rafaela bianca jessica1 amanda1 patricia vanessa
luana aline priscila tatiane renata simone adriana sandra cristina claudia monica silvia regina
joao jose pedro paulo lucas mateus matheus gabriel rafael gustavo guilherme felipe bruno diego
rodrigo leonardo thiago tiago vinicius eduardo ricardo marcelo marcos carlos fernando antonio
francisco luis luiz miguel arthur heitor davi bernardo enzo samuel1 henrique caio igor joaquim
alejandro sebastian santiago mateo nicolas diego123 javier sergio manuel jesus1 jorge alberto
andres camilo fernando1 ricardo1 roberto eduardo1 cristian christian esteban emilio hector ivan
senha senha123 senha1234 senha12345 senha@123 minhasenha mudar123 mudar@123 mudar1234 mudarsenha
trocar123 alterar123 acesso acesso123 entrar entrar123 usuario usuario123 teste teste123 teste1234
admin@123 administrador suporte suporte123 sistema sistema123 empresa empresa123 brasil123 brasil2014
flamengo flamengo1 flamengo123 corinthians corinthians1 palmeiras palmeiras1 saopaulo spfc santos
santosfc vasco vascodagama gremio cruzeiro botafogo fluminense internacional inter123 atletico
atleticomg galo bahia sport vitoria1 fortaleza ceara coritiba goias parana nautico remo paysandu
amor amor123 amorzinho meuamor teamo teamo123 teamomuito teadoro paixao saudade felicidade alegria
familia familia123 deus deus123 deusefiel deuseamor deuseleal jesus jesus123 jesuscristo jesusteama
jesuseamor senhor aleluia gloria gloriaadeus fe esperanca vida minhavida mamae papai mae pai filho
filha irmao irma princesa princesinha gatinha gatinho lindo linda bonita bonito querida querido
benfica sporting porto lisboa riodejaneiro rio saopaulo1 bahia123 recife salvador curitiba
pernambuco minasgerais goiania brasilia manaus belem fortaleza1 natal maceio
contraseña contrasena contrasena1 contrasena123 clave clave123 miclave secreto tequiero tequiero1
teamo1 tesoro cariño carino corazon mariposa estrella princesa1 amorcito amormio mivida bonita1
hola hola123 holahola amigo amigos amistad familia1 dios dios123 diosesamor bendicion
barcelona1 realmadrid1 boca bocajuniors river riverplate chivas america1 cruzazul pumas tigres
monterrey atleticomadrid sevilla valencia betis racing independiente sanlorenzo penarol nacional
millonarios huracan alianza universitario colocolo
superman1 batman1 spiderman1 pokemon1 naruto1 starwars1 matrix neo morpheus trinity gandalf frodo
hobbit legolas harrypotter hogwarts hermione voldemort sherlock watson doctor who tardis
jordan1 michael1 charlie2 thomas1 robert1 daniel1 jessica2 ashley1 hunter1 ranger1 buster buster1
maggie bailey molly lucky lucky1 max123 buddy rocky rocky1 duke bella luna coco daisy sadie zoey
toby bear tigger1 snoopy garfield kitty kitten puppy doggy doggie pussy kitkat
qwerty12 qwerty1234 qwerty12345 qwertz qwertzu asdf asdfg asdfasdf asdfqwer zxcv zxcvb
1qw23e 1qwerty 123qweasd qweqwe qwaszx wasd wasdwasd
abc abcabc abcd abcde abc1234 aaa aaaa aaaaa aaaaaaa aaaaaaaa abab ababab
iloveu iloveyou! iluvu ilovegod ilovejesus ilovemom ilovedad
letmein! letmein1 opensesame open sesame godmode godlike
blink182 metallica nirvana slipknot linkinpark eminem beyonce rihanna shakira madonna
justinbieber onedirection bts blackpink taylorswift selena
cocacola pepsi mcdonalds starbucks nike adidas puma ferrari porsche lamborghini bmw mercedes audi
honda toyota nissan mazda subaru ford chevy chevrolet dodge jeep harley yamaha ducati kawasaki
corvette camaro mustang1 civic corolla
matrix1 hacker hacked hacking anonymous secure security firewall network server database oracle
mysql postgres postgresql redis mongodb linux ubuntu debian centos fedora windows10 windows7
macbook laptop desktop keyboard mouse monitor printer wifi wireless router modem
company business office manager boss ceo staff employee worker
money money123 dollar dollars cash rich million billion bitcoin crypto ethereum
forever forever1 always never nothing something everything anything someone nobody
angel angel1 angels devil demon heaven hell god666 satan lucifer
blue red green yellow purple pink black white orange1 silver golden gold diamond ruby emerald
sunshine1 moonlight starlight rainbow thunder lightning storm snow rain sky ocean sea river
mountain forest nature earth planet universe galaxy cosmos space rocket
pizza burger pasta sushi taco tacos coffee tea beer vodka whiskey tequila wine
hello1 hello12 hello1234 hi123 hey123 yes123 ok123 okok okay
welcome! welcome2 welcome01 welcome2024 welcome2025 welcome2023 spring2024 summer2024 winter2024
autumn2024 fall2024 spring2025 summer2025 winter2025 password2023 password2024 password2025
password01 password02 password007 agent007 james007 bond007 007007
qwerty007 abc123456 abcd123 abcd12345 abc@123 aa123123 a1234567 a123123 qaz123 wsx123
1111 11111 111111111 1111111111 2222 22222222 3333 4444 5555 55555 5555555 6666 66666666 7777
77777777 8888 88888888 9999 99999999 0000 00000 0000000 000000000 1212 12121212 1313 2121 2323
123 1234512345 123456123 12345612345 1234554321 12344321 123454321 1122334455 11223344 121314
12301230 123098 1230 12345678910 135790 13579 2468 24680 246810 0123456789 01234567 0123456 012345
9876543210 98765432 9876543 98765 87654321 7654321 654321a 4321 54321 147852 147852369 159951 753951
789789 789123 321321 321654 456123 456456 741852 852456 963852741 951753 258258 147147 369369
1password 1234password password1234 passwort passwort1 motdepasse wachtwoord salasana lozinka
parola haslo heslo jelszo sifre parol
letmein2 trustme trustnoone believe faith hope peace harmony love4ever loveu love1 love12
babygirl baby baby123 babyboy babe sweetie sweetheart honey honey123 sugar candy cupcake
princess12 prince king queen king123 queen123 kingdom royal lord master1 slave
dragon1 dragons dragonball dragonfly wolf wolves fox foxy panther jaguar cobra viper python
snake spider scorpion shark whale tiger123 lion123 bear123 monkey1 donkey horse pony unicorn
pikachu charizard mario luigi zelda link sonic yoshi kirby pacman tetris
soccer12 football123 baseball123 basketball1 hockey1 golfer tennis1 running runner
cheerleader dancer dance music music123 guitar piano drums singer rockstar rock rocknroll
jazz blues hiphop rapper
computer1 internet1 welcome12 access14 access123 letmein12 login1 logon signin signup
register member members public private personal secret1 secret12 hidden mystery
qwerty!@# !@#$%^ !@#$%^&* !qaz2wsx @qwerty
zxc123 zxcvbn123 zxcasdqwe asdzxc qazxsw qwerasdf qwerty321 ytrewq poiuytrewq
abcdef123 abcdefg123 abcdefghi abcdefghij
111222 112211 121121 123123123 123412 123456789a 12345678a 12345a 1234a 123a
a1s2d3f4 q1w2e3r4t5 z1x2c3v4 1z2x3c4v
x123456 z123456 q123456 w123456
iloveyou123 iloveyou12 loveyou1 loveyou123 loveyou2
myspace myspace1 friends friends1 friendship bestfriend bff
school college university student teacher professor
mother father mommy daddy mom123 dad123 family123 grandma grandpa
summer1 summer12 summer123 winter1 spring1 autumn1
sparky shadow1 shadow123 buster123 ginger1 pepper1 cookie1 cookie123 muffin peanut
mickey minnie disney pluto goofy bambi nemo elsa anna1 frozen
chelsea1 arsenal1 liverpool1 united
chicken chicken1 turkey bacon pancake waffle
soccerball baseball12 superstar star star123 stars shining
sexy sexy123 hot hot123 sexygirl cutie cute cute123
freedom1 liberty justice america2024 patriot
`;

export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(RAW.split(/\s+/).filter(Boolean));

const LEET: Record<string, string> = {
  '@': 'a',
  '4': 'a',
  '8': 'b',
  '(': 'c',
  '3': 'e',
  '6': 'g',
  '1': 'i',
  '!': 'i',
  '0': 'o',
  $: 's',
  '5': 's',
  '7': 't',
  '+': 't',
  '2': 'z',
};

function unleet(s: string): string[] {
  const plain = s.replace(/[@48(36!0$57+2]/g, (c) => LEET[c] ?? c);
  // "1" stands for "l" as often as for "i".
  return s.includes('1')
    ? [plain, s.replace(/[@48(36!0$57+2]/g, (c) => (c === '1' ? 'l' : (LEET[c] ?? c)))]
    : [plain];
}

/** The forms of a password worth looking up: as typed (case-folded), without trailing digits/symbols, un-leeted. */
function variants(password: string): Set<string> {
  const lower = password.toLowerCase();
  const out = new Set<string>([lower]);
  const stripped = lower.replace(/[\d\W_]+$/u, '');
  if (stripped.length >= 4) out.add(stripped);
  for (const v of [...out]) {
    for (const u of unleet(v)) {
      out.add(u);
      const s = u.replace(/[\d\W_]+$/u, '');
      if (s.length >= 4) out.add(s);
    }
  }
  return out;
}

const isRepeated = (s: string) => s.length > 0 && [...s].every((c) => c === s[0]);

function isSequence(s: string): boolean {
  if (s.length < 4) return false;
  const codes = [...s].map((c) => c.codePointAt(0) ?? 0);
  const step = (codes[1] ?? 0) - (codes[0] ?? 0);
  if (step !== 1 && step !== -1) return false;
  return codes.every((c, i) => i === 0 || c - (codes[i - 1] ?? 0) === step);
}

/**
 * Whether a password is easy to guess: one of the common passwords (or a trivial variant of one),
 * a repeated character or a run like "abcdef", or the account's own e-mail (or its local part).
 */
export function guessable(password: string, email?: string): 'common' | 'email' | undefined {
  const address = email?.trim().toLowerCase();
  const local = address?.split('@')[0];
  for (const form of variants(password)) {
    if (COMMON_PASSWORDS.has(form) || isRepeated(form) || isSequence(form)) return 'common';
    if (address && (form === address || (local && local.length >= 3 && form === local))) return 'email';
  }
  return undefined;
}
