"""The hall: every table's clock on the organiser's screen (`clockctl hall`, docs/hall.md).

wire      the firmware's pure modules the hall reads messages with (hall/message.py,
          hall/sign.py, clock/display.py)
board     what the hall knows of every table, fed message by message (no network)
pairings  the round's pairings (CSV) that name the players
export    the results received, as CSV and as tsh's score entry
broker    the embedded MQTT broker (amqtt) and the hall's subscriber (paho-mqtt)
server    the page, /tables.json and the live feed (Server-Sent Events)
cli       `clockctl hall`
"""
