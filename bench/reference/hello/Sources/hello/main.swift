import Foundation

print("hello")
