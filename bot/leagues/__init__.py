"""A league's pure core: its settings, entries, rounds and results, the pairings and the
standings (issue 40). No Discord, no storage: the service stores a ``League`` and asks this
package what the next round is and who leads; docs/leagues.md has the decisions.

- ``records``: the settings, entries, rounds, results and the league, and the pure steps
  between them (``start``, ``withdraw``, ``replace_member``, ``record``, ``forfeits``).
- ``standings``: points by place and byes, the ranking with the format's tiebreaks, and the
  standings as text (``text``) and as plain data for the picture (``picture``).
- ``codec``: a league as plain data and back (``to_data``, ``from_data``), as it is stored.
- ``pairing``: the next round (``pair``): the circle method for round-robin, a maximum
  weight matching for two-player Swiss, dealt and improved tables for three or four.

The package is the league core's one front door: callers write ``from bot import leagues``
and ``leagues.pair(...)``, so the names below are imported here to be re-exported (the
``name as name`` form says so to ruff and mypy); each is defined in the module named.
"""

from bot.leagues.codec import from_data as from_data
from bot.leagues.codec import to_data as to_data
from bot.leagues.pairing import WIDE as WIDE
from bot.leagues.pairing import WINDOWS as WINDOWS
from bot.leagues.pairing import circle as circle
from bot.leagues.pairing import meetings as meetings
from bot.leagues.pairing import pair as pair
from bot.leagues.pairing import swiss_pairs as swiss_pairs
from bot.leagues.ranking import ROUND_ROBIN_TIEBREAKS as ROUND_ROBIN_TIEBREAKS
from bot.leagues.ranking import SWISS_TIEBREAKS as SWISS_TIEBREAKS
from bot.leagues.ranking import Row as Row
from bot.leagues.ranking import Standings as Standings
from bot.leagues.ranking import bye_points as bye_points
from bot.leagues.ranking import finished as finished
from bot.leagues.ranking import number as number
from bot.leagues.ranking import pairwise as pairwise
from bot.leagues.ranking import picture as picture
from bot.leagues.ranking import points as points
from bot.leagues.ranking import points_by_place as points_by_place
from bot.leagues.ranking import standings as standings
from bot.leagues.ranking import text as text
from bot.leagues.records import DEADLINE_RULES as DEADLINE_RULES
from bot.leagues.records import FORMATS as FORMATS
from bot.leagues.records import TABLE_SIZES as TABLE_SIZES
from bot.leagues.records import DeadlineRule as DeadlineRule
from bot.leagues.records import Entry as Entry
from bot.leagues.records import Format as Format
from bot.leagues.records import League as League
from bot.leagues.records import Result as Result
from bot.leagues.records import Round as Round
from bot.leagues.records import Settings as Settings
from bot.leagues.records import Withdrawal as Withdrawal
from bot.leagues.records import forfeits as forfeits
from bot.leagues.records import record as record
from bot.leagues.records import replace_member as replace_member
from bot.leagues.records import start as start
from bot.leagues.records import withdraw as withdraw
