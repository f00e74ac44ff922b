// TraceScript.g4 - grammar of tscc trace scripts (docs/language.md).
//
// The parse tree is turned into tscc's own AST by frontend/lib/Parse/
// ASTBuilder right away; nothing outside the frontend sees ANTLR types.
//
// C declarations in the declaration section (typedefs, struct/union/enum
// definitions, function prototypes) are not parsed as C: they are matched as
// balanced token sequences and handed to Clang verbatim, so anything C allows
// there (attributes, bit-fields, nested definitions) passes through.
//
// C's usual ambiguities (`(T)x` casts, `sizeof(T)`, `T *p;` declarations,
// `m[T]` key types) are resolved the way C compilers do it, with a "lexer
// hack": before parsing, the frontend retypes every identifier that names a
// type (typedefs declared in the script, names from an optional hook, names
// ending in _t, and `(x) y` casts) from Identifier to TypeName. The grammar
// itself has no semantic predicates.

grammar TraceScript;

/// Identifiers that name types; the lexer never produces it, the frontend
/// retypes Identifier tokens (see above).
tokens { TypeName }

// ---------------------------------------------------------------------------
// Top level
// ---------------------------------------------------------------------------

script
    : topLevelItem* EOF
    ;

/// Only an expression; used to parse macro expansions for sema.
expressionOnly
    : expression EOF
    ;

topLevelItem
    : Directive                                 # directiveItem
    | typedefDeclaration                        # typedefItem
    | tagDefinition                             # tagItem
    | varDeclaration                            # varItem
    | prototype                                 # prototypeItem
    | clause                                    # clauseItem
    | ';'                                       # emptyItem
    ;

// C declarations, passed to Clang verbatim ---------------------------------

typedefDeclaration
    : 'typedef' cNoSemi+ ';'
    ;

/// `struct s { ... };`, `union u { ... } x;`, `enum e { A, B };`, with any
/// attributes; also a forward declaration `struct s;`.
tagDefinition
    : cQualifier* tagKeyword (Identifier | cParens)* '{' cBody '}' cNoSemi* ';'
    | tagKeyword (Identifier | TypeName) ';'
    ;

/// A declaration whose declarator is a function declarator.
prototype
    : cWord* cParens (cWord | cParens | cBrackets)* ';'
    ;

/// A token of a declaration outside brackets: names, keywords and '*'.
/// (Literals and operators only occur inside brackets, in cBody.)
cWord
    : Identifier | TypeName | '*' | 'const' | 'volatile' | 'struct' | 'union'
    | 'enum' | 'void' | 'char' | 'short' | 'int' | 'long' | 'signed'
    | 'unsigned' | 'float' | 'double' | '_Bool'
    ;

cQualifier
    : 'const' | 'volatile'
    ;

tagKeyword
    : 'struct' | 'union' | 'enum'
    ;

cParens
    : '(' cBody ')'
    ;

cBrackets
    : '[' cBody ']'
    ;

/// Anything balanced, semicolons included; preprocessor lines too
/// (`#ifdef` around members), which Clang sees where they are.
cBody
    : ( '{' cBody '}' | cParens | cBrackets | ';' | cAtom | '=' | Directive )*
    ;

/// One balanced item that is not ';'.
cNoSemi
    : '{' cBody '}' | cParens | cBrackets | cAtom | '='
    ;

/// A token that may appear in a C declaration outside brackets.
cAtom
    : ~( '{' | '}' | '(' | ')' | '[' | ']' | ';' | '=' | ProbeSpec
       | Directive | '__global' | '__thread' | '__auto' | 'typedef' )
    ;

// Script variables ---------------------------------------------------------

/// More than one storage class is diagnosed by the frontend.
varDeclaration
    : storageClass* declSpecifiers initDeclarator (',' initDeclarator)* ';'
    ;

storageClass
    : '__global' | '__thread' | '__auto'
    ;

/// In a declaration, an unknown identifier in type position is taken as a
/// type name (`myint x;`); sema reports it if it is not one.
declSpecifiers
    : typeSpecifiers
    | typeQualifier* Identifier typeQualifier*
    ;

typeSpecifiers
    : typeQualifier* builtinTypeKeyword (builtinTypeKeyword | typeQualifier)*
    | typeQualifier* namedType typeQualifier*
    ;

typeQualifier
    : 'const' | 'volatile'
    ;

builtinTypeKeyword
    : 'void' | 'char' | 'short' | 'int' | 'long' | 'signed' | 'unsigned'
    | 'float' | 'double' | '_Bool'
    ;

namedType
    : 'String'                                  # stringType
    | tagKeyword (Identifier | TypeName)        # tagType
    | TypeName                                  # typedefType
    | Typeof '(' (typeName | expression) ')'    # typeofType
    ;

initDeclarator
    : declarator ('=' expression)?
    ;

declarator
    : pointer* Identifier declaratorSuffix*
    ;

pointer
    : '*' typeQualifier*
    ;

/// `[256]` (array dimension or String capacity) or `[String, long]`
/// (associative-array key types).
declaratorSuffix
    : '[' (typeName (',' typeName)* | expression?) ']'
    ;

typeName
    : typeSpecifiers abstractDeclarator?
    ;

/// C's abstract declarator (6.7.7): `*`, `[3]`, `(*)[3]`, `(*)(int)`.
abstractDeclarator
    : pointer+ directAbstractDeclarator?
    | directAbstractDeclarator
    ;

directAbstractDeclarator
    : '(' abstractDeclarator ')' abstractSuffix*
    | abstractSuffix+
    ;

abstractSuffix
    : '[' expression? ']'
    | '(' parameterList? ')'
    ;

parameterList
    : parameterDeclaration (',' parameterDeclaration)* (',' '...')?
    ;

parameterDeclaration
    : typeSpecifiers (abstractDeclarator | namedParameterDeclarator)?
    ;

/// A parameter's declarator with its name, which a type name ignores.
namedParameterDeclarator
    : pointer* (Identifier | '(' namedParameterDeclarator ')')
      abstractSuffix*
    ;

// Clauses ------------------------------------------------------------------

clause
    : ProbeSpec (',' ProbeSpec)* ('when' '(' expression ')')? compoundStatement
    ;

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------

compoundStatement
    : '{' statement* '}'
    ;

statement
    : compoundStatement                                     # blockStmt
    | 'if' '(' expression ')' statement ('else' statement)? # ifStmt
    | 'return' expression? ';'                              # returnStmt
    | expression ';'                                        # exprStmt
    | varDeclaration                                        # declStmt
    | ';'                                                   # nullStmt
    | unsupportedStatement                                  # badStmt
    ;

/// Parsed only to give one clear diagnostic instead of a cascade.
unsupportedStatement
    : kw=('while' | 'switch') '(' expression ')' statement
    | kw='for' '(' cBody ')' statement
    | kw='do' statement 'while' '(' expression ')' ';'
    | kw=('break' | 'continue') ';'
    | kw='goto' Identifier ';'
    ;

// ---------------------------------------------------------------------------
// Expressions (C precedence, highest first)
// ---------------------------------------------------------------------------

expression
    : primaryExpression                                         # primaryExpr
    | expression '[' argumentList ']'                           # subscriptExpr
    | expression op=('.' | '->') memberName                     # memberExpr
    | expression op=('++' | '--')                               # postfixExpr
    | op=('++' | '--') expression                               # prefixExpr
    | op=('+' | '-' | '!' | '~' | '*' | '&') expression         # unaryExpr
    | '(' typeName ')' expression                               # castExpr
    | op=('sizeof' | Alignof) '(' typeName ')'                  # traitTypeExpr
    | op=('sizeof' | Alignof) expression                        # traitExprExpr
    | expression op=('*' | '/' | '%') expression                # binaryExpr
    | expression op=('+' | '-') expression                      # binaryExpr
    | expression op=('<<' | '>>') expression                    # binaryExpr
    | expression op=('<' | '>' | '<=' | '>=') expression        # binaryExpr
    | expression op=('==' | '!=') expression                    # binaryExpr
    | expression op='&' expression                              # binaryExpr
    | expression op='^' expression                              # binaryExpr
    | expression op='|' expression                              # binaryExpr
    | expression op='&&' expression                             # binaryExpr
    | expression op='||' expression                             # binaryExpr
    | <assoc=right> expression '?' expression? ':' expression   # conditionalExpr
    | <assoc=right> expression op=('=' | '*=' | '/=' | '%=' | '+=' | '-='
        | '<<=' | '>>=' | '&=' | '^=' | '|=') expression        # assignExpr
    ;

primaryExpression
    : Identifier '(' argumentList? ')'                          # callExpr
    | Identifier                                                # identifierExpr
    | Number                                                    # numberExpr
    | CharLiteral                                               # charExpr
    | (StringLiteral | PrefixedStringLiteral)+                  # stringExpr
    | Param                                                     # paramExpr
    | AggName ('[' argumentList? ']')?                          # aggregationExpr
    | 'offsetof' '(' typeName ',' offsetofDesignator ')'        # offsetofExpr
    | Generic '(' expression (',' genericAssociation)+ ')'      # genericExpr
    | '(' typeName ')' '{' (initializerList ','?)? '}'          # compoundLiteralExpr
    | '(' expression ')'                                        # parenExpr
    ;

genericAssociation
    : (typeName | Default) ':' expression
    ;

initializerList
    : designatedInitializer (',' designatedInitializer)*
    ;

designatedInitializer
    : (designator+ '=')? initializer
    ;

designator
    : '[' expression ']'
    | '.' memberName
    ;

initializer
    : expression
    | '{' (initializerList ','?)? '}'
    ;

argumentList
    : expression (',' expression)*
    ;

offsetofDesignator
    : memberName ('.' memberName | '[' expression ']')*
    ;

/// Member names live in their own namespace: `s->size_t` is a member, and
/// so are the script's own keywords, which are ordinary names in C
/// (`r->when`, `p->String`).
memberName
    : Identifier | TypeName | 'when' | 'String' | '__global' | '__thread'
    | '__auto'
    ;

// ---------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------

// Keywords.
Typedef : 'typedef';
Struct : 'struct';
Union : 'union';
Enum : 'enum';
Void : 'void';
Char : 'char';
Short : 'short';
Int : 'int';
Long : 'long';
Signed : 'signed';
Unsigned : 'unsigned';
Float : 'float';
Double : 'double';
Bool : '_Bool';
Const : 'const';
Volatile : 'volatile';
StringKw : 'String';
Global : '__global';
Thread : '__thread';
Auto : '__auto';
When : 'when';
If : 'if';
Else : 'else';
Return : 'return';
Sizeof : 'sizeof';
Alignof : '_Alignof' | '__alignof__' | '__alignof';
Typeof : 'typeof' | '__typeof__' | '__typeof';
Generic : '_Generic';
Default : 'default';
Offsetof : 'offsetof';
While : 'while';
For : 'for';
Do : 'do';
Switch : 'switch';
Goto : 'goto';
Break : 'break';
Continue : 'continue';

// Punctuators.
LParen : '(';
RParen : ')';
LBracket : '[';
RBracket : ']';
LBrace : '{';
RBrace : '}';
Semi : ';';
Comma : ',';
Ellipsis : '...';
Dot : '.';
Arrow : '->';
PlusPlus : '++';
MinusMinus : '--';
Plus : '+';
Minus : '-';
Star : '*';
Slash : '/';
Percent : '%';
Tilde : '~';
Not : '!';
Amp : '&';
Pipe : '|';
Caret : '^';
AmpAmp : '&&';
PipePipe : '||';
Shl : '<<';
Shr : '>>';
Less : '<';
Greater : '>';
LessEqual : '<=';
GreaterEqual : '>=';
EqualEqual : '==';
NotEqual : '!=';
Question : '?';
Colon : ':';
Assign : '=';
StarAssign : '*=';
SlashAssign : '/=';
PercentAssign : '%=';
PlusAssign : '+=';
MinusAssign : '-=';
ShlAssign : '<<=';
ShrAssign : '>>=';
AmpAssign : '&=';
CaretAssign : '^=';
PipeAssign : '|=';

/// `@@` then fields separated by ':' up to whitespace, ',' or '{'. A field
/// written /.../ is a regular expression and may contain anything but an
/// unescaped '/' or a newline (':', ',', '{' and spaces included); a field
/// that starts with '/' but is not such a whole field is plain text (a path
/// such as /usr/lib/libc.so.6).
ProbeSpec
    : '@@' ProbeField? ( ':' ProbeField? )*
    ;

fragment ProbeField
    : '/' ( ~[/\\\r\n] | '\\' ~[\r\n] )* '/'
    | ~[ \t\r\n\f\u000B,{:]+
    ;

/// `@name`, or bpftrace's anonymous `@` (`@[stktrace()] = count();`).
AggName : '@' ( IdentStart IdentChar* )?;

/// `$1`; anything else after '$' is diagnosed by the frontend.
Param : '$' IdentChar*;

Identifier : IdentStart IdentChar*;

/// A C preprocessing number: the frontend decodes it (radix, suffixes) and
/// diagnoses what is not a valid integer constant.
Number : [0-9] ( [0-9a-zA-Z_.] | [eEpP] [+-] )*;

/// `'a'`, and with C11's prefixes `L'a'` (wchar_t), `u'a'` (char16_t) and
/// `U'a'` (char32_t).
CharLiteral : [LuU]? '\'' ( ~['\\\r\n] | '\\' ~[\r\n] )* '\'';
UnterminatedCharLiteral : [LuU]? '\'' ( ~['\\\r\n] | '\\' ~[\r\n] )*;

/// Wide and UTF string literals are recognised only to be rejected with a
/// reason: scripts' strings are byte strings.
PrefixedStringLiteral : ( 'L' | 'u' | 'U' | 'u8' ) '"' ( ~["\\\r\n] | '\\' ~[\r\n] )* '"';

StringLiteral : '"' ( ~["\\\r\n] | '\\' ~[\r\n] | '\\' '\r'? '\n' )* '"';
UnterminatedStringLiteral : '"' ( ~["\\\r\n] | '\\' ~[\r\n] | '\\' '\r'? '\n' )*;

/// A whole preprocessor line with its continuations; only valid at top
/// level, where it goes into the C prelude.
Directive : '#' ( ~[\\\r\n] | '\\' '\r'? '\n' | '\\' )*;

BlockComment : '/*' .*? '*/' -> skip;
UnterminatedBlockComment : '/*' ( ~'*' | '*'+ ~[*/] )* '*'*;
LineComment : '//' ( ~[\\\r\n] | '\\' '\r'? '\n' | '\\' )* -> skip;
Whitespace : [ \t\r\n\f\u000B]+ -> skip;

/// Any other character; the frontend reports it and drops it.
ErrorChar : .;

fragment IdentStart : [a-zA-Z_];
fragment IdentChar : [a-zA-Z0-9_];
