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
// A few C ambiguities (`(T)x` casts, `sizeof(T)`, `T *p;` declarations,
// `m[T]` key types) need to know whether an identifier names a type; the
// predicates below ask isTypeName(), which the frontend fills from the
// script's own typedefs and an optional hook. Predicates sit at the left edge
// of their alternatives because ANTLR evaluates them at the decision point.

grammar TraceScript;

@parser::header {
#include <functional>
#include <string>
}

@parser::members {
  /// Set by the frontend: does \p Name name a C type?
  std::function<bool(const std::string &)> TypeNameHook;
  /// Set by the frontend: called after each typedef declaration is parsed,
  /// so that later uses of the name parse as a type.
  std::function<void(antlr4::ParserRuleContext *)> TypedefHook;

  bool isTypeName(const std::string &Name) {
    return TypeNameHook && TypeNameHook(Name);
  }

  /// Token \p K tokens ahead (1-based) is a keyword that can only start a
  /// type name.
  bool isTypeKeywordAt(ssize_t K) {
    switch (_input->LA(K)) {
    case Void: case Char: case Short: case Int: case Long: case Signed:
    case Unsigned: case Float: case Double: case Bool: case Const:
    case Volatile: case Struct: case Union: case Enum: case StringKw:
      return true;
    default:
      return false;
    }
  }

  /// A type name starts \p K tokens ahead: a type keyword, a known type
  /// name, or an identifier followed by '*'s and ')' (`(foo *)p`).
  bool isTypeNameAt(ssize_t K) {
    if (isTypeKeywordAt(K))
      return true;
    if (_input->LA(K) != Identifier)
      return false;
    if (isTypeName(_input->LT(K)->getText()))
      return true;
    ssize_t I = K + 1;
    if (_input->LA(I) != Star)
      return false;
    while (_input->LA(I) == Star)
      ++I;
    return _input->LA(I) == RParen;
  }

  /// At '(': does a cast follow? Besides known type names, `(x) y` where
  /// the token after ')' can only start an operand is a cast too.
  bool isCastAhead() {
    if (_input->LA(1) != LParen)
      return false;
    if (isTypeNameAt(2))
      return true;
    if (_input->LA(2) != Identifier || _input->LA(3) != RParen)
      return false;
    switch (_input->LA(4)) {
    case Identifier: case Number: case CharLiteral: case StringLiteral:
    case Param: case AggName: case LParen: case Sizeof: case Alignof:
    case Offsetof: case Tilde: case Not:
      return true;
    default:
      return false;
    }
  }

  /// At a statement: does a local declaration start here?
  bool isDeclarationStart() {
    switch (_input->LA(1)) {
    case Global: case Thread: case Auto:
      return true;
    case Identifier:
      return isTypeName(_input->LT(1)->getText()) ||
             _input->LA(2) == Identifier;
    default:
      return isTypeKeywordAt(1);
    }
  }
}

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
    : 'typedef' cNoSemi+ ';' { if (TypedefHook) TypedefHook(_localctx); }
    ;

/// `struct s { ... };`, `union u { ... } x;`, `enum e { A, B };`, with any
/// attributes.
tagDefinition
    : cQualifier* tagKeyword (Identifier | cParens)* '{' cBody '}' cNoSemi* ';'
    ;

/// A declaration whose declarator is a function declarator.
prototype
    : cAtom* cParens (cAtom | cParens | cBrackets)* ';'
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

/// Anything balanced, semicolons included.
cBody
    : ( '{' cBody '}' | cParens | cBrackets | ';' | cAtom | '=' )*
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

varDeclaration
    : storageClass? declSpecifiers initDeclarator (',' initDeclarator)* ';'
    ;

storageClass
    : '__global' | '__thread' | '__auto'
    ;

declSpecifiers
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
    | tagKeyword Identifier                     # tagType
    | Identifier                                # typedefType
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
    : '[' {_input->LA(1) != RBracket && isTypeNameAt(1)}? typeName (',' typeName)* ']'  # keySuffix
    | '[' expression? ']'                                                              # dimSuffix
    ;

typeName
    : declSpecifiers abstractDeclarator?
    ;

abstractDeclarator
    : pointer+ ('[' expression? ']')*
    | ('[' expression? ']')+
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
    | {isDeclarationStart()}? varDeclaration                # declStmt
    | expression ';'                                        # exprStmt
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
    | expression op=('.' | '->') Identifier                     # memberExpr
    | expression op=('++' | '--')                               # postfixExpr
    | op=('++' | '--') expression                               # prefixExpr
    | op=('+' | '-' | '!' | '~' | '*' | '&') expression         # unaryExpr
    | {isCastAhead()}? '(' typeName ')' expression              # castExpr
    | {isTypeNameAt(3) && _input->LA(2) == LParen}?
      op=('sizeof' | Alignof) '(' typeName ')'               # traitTypeExpr
    | op=('sizeof' | Alignof) expression                     # traitExprExpr
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
    | <assoc=right> expression '?' expression ':' expression    # conditionalExpr
    | <assoc=right> expression op=('=' | '*=' | '/=' | '%=' | '+=' | '-='
        | '<<=' | '>>=' | '&=' | '^=' | '|=') expression        # assignExpr
    ;

primaryExpression
    : Identifier '(' argumentList? ')'                          # callExpr
    | Identifier                                                # identifierExpr
    | Number                                                    # numberExpr
    | CharLiteral                                               # charExpr
    | StringLiteral+                                            # stringExpr
    | Param                                                     # paramExpr
    | AggName ('[' argumentList? ']')?                          # aggregationExpr
    | 'offsetof' '(' typeName ',' offsetofDesignator ')'        # offsetofExpr
    | '(' expression ')'                                        # parenExpr
    ;

argumentList
    : expression (',' expression)*
    ;

offsetofDesignator
    : Identifier ('.' Identifier | '[' expression ']')*
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
Alignof : '_Alignof' | '__alignof__';
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

AggName : '@' IdentStart IdentChar*;

/// `$1`; anything else after '$' is diagnosed by the frontend.
Param : '$' IdentChar*;

Identifier : IdentStart IdentChar*;

/// A C preprocessing number: the frontend decodes it (radix, suffixes) and
/// diagnoses what is not a valid integer constant.
Number : [0-9] ( [0-9a-zA-Z_.] | [eEpP] [+-] )*;

CharLiteral : '\'' ( ~['\\\r\n] | '\\' ~[\r\n] )* '\'';
UnterminatedCharLiteral : '\'' ( ~['\\\r\n] | '\\' ~[\r\n] )*;

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
